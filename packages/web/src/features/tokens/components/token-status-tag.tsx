import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const colours: Record<number, string> = { 1: 'green', 2: 'red', 3: 'gold', 4: 'default' };

/** Token status: 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
export function TokenStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('tokens');
  return <Tag color={colours[status] ?? 'default'}>{status in colours ? t(`status.${status}`) : t('status.unknown')}</Tag>;
}
