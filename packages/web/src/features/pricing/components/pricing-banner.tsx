import { Alert, Flex } from 'antd';
import { useTranslation } from 'react-i18next';

/** Which group's prices are shown, with its ratio; visitors are told the default group applies. */
export function PricingBanner({ loggedIn, group, ratio }: { loggedIn: boolean; group: string; ratio: number }) {
  const { t } = useTranslation('pricing');
  return (
    <Flex vertical gap={8}>
      {loggedIn ? (
        <Alert type="info" showIcon title={t('banner.group', { group, ratio })} />
      ) : (
        <Alert type="warning" showIcon title={t('banner.visitor', { ratio })} />
      )}
      <Alert type="success" showIcon title={t('banner.formula')} />
    </Flex>
  );
}
