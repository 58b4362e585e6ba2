import { App, Button, Divider, Flex, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { resetSecondFactor } from '../api/reset-second-factor.ts';

/** Resets a user's TOTP or passkeys (a lost phone or key); the user then logs in with the password alone. */
export function UserSecondFactorSection({ userId }: { userId: number }) {
  const { t } = useTranslation('users');
  const { message, modal } = App.useApp();

  const reset = (factor: 'totp' | 'passkeys') =>
    modal.confirm({
      title: t(factor === 'totp' ? 'secondFactor.resetTotp' : 'secondFactor.resetPasskeys'),
      content: t('secondFactor.confirm'),
      okButtonProps: { danger: true, 'data-testid': 'second-factor-reset-confirm' },
      onOk: async () => {
        try {
          void message.success(await resetSecondFactor(userId, factor));
        } catch (error) {
          void message.error(error instanceof ApiError ? error.message : String(error));
        }
      },
    });

  return (
    <>
      <Divider titlePlacement="start">{t('secondFactor.title')}</Divider>
      <Typography.Paragraph type="secondary">{t('secondFactor.help')}</Typography.Paragraph>
      <Flex gap={8} wrap>
        <Button danger onClick={() => reset('totp')} data-testid="reset-totp">
          {t('secondFactor.resetTotp')}
        </Button>
        <Button danger onClick={() => reset('passkeys')} data-testid="reset-passkeys">
          {t('secondFactor.resetPasskeys')}
        </Button>
      </Flex>
    </>
  );
}
