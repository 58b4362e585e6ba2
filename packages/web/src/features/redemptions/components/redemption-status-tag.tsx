import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const colours: Record<number, string> = { 1: 'green', 2: 'red', 3: 'default' };

/** 1 unused, 2 disabled, 3 used. */
export function RedemptionStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('redemptions');
  return <Tag color={colours[status] ?? 'default'}>{status in colours ? t(`status.${status}`) : t('status.unknown')}</Tag>;
}
