import { Flex, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { useLogStat } from '../api/log-stat.ts';
import type { LogFilters } from '../api/log-filters.ts';

/** The stats header: quota consumed under the current filters, requests and tokens per minute. */
export function LogStats({ filters, admin }: { filters: LogFilters; admin: boolean }) {
  const { t } = useTranslation('logs');
  const formatQuota = useQuotaFormatter();
  const stat = useLogStat(filters, admin);
  if (stat.isLoading) return <Skeleton.Input active size="small" style={{ width: 360 }} />;
  if (stat.isError) return <Tag color="red">{t('stats.failed', { message: stat.error.message })}</Tag>;
  const data = stat.data ?? { quota: 0, rpm: 0, tpm: 0 };
  return (
    <Flex gap={8} wrap data-testid="log-stats">
      <Tag color="blue" style={{ fontSize: 14, padding: '4px 10px' }}>
        <QuotaHover quota={data.quota}>{t('stats.quota', { value: formatQuota(data.quota) })}</QuotaHover>
      </Tag>
      <Tag color="pink" style={{ fontSize: 14, padding: '4px 10px' }}>
        {t('stats.rpm', { value: data.rpm })}
      </Tag>
      <Tag color="gold" style={{ fontSize: 14, padding: '4px 10px' }}>
        {t('stats.tpm', { value: data.tpm })}
      </Tag>
    </Flex>
  );
}
