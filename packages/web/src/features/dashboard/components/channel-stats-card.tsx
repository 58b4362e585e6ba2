import type { ChannelStatRow } from '@switchboard/contracts';
import { Alert, Card, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { QuotaAmount } from '../../../components/quota-amount.tsx';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { useChannelStats } from '../api/channel-stats.ts';
import type { QuotaDataQuery } from '../api/quota-data.ts';

/** The server's bucket above 600 s, in milliseconds (see api/data/latency-buckets.ts). */
const overflowLatency = 3_600_000;

/** Administrators' per-channel view: calls, errors, latency percentiles of answered calls, cost. */
export function ChannelStatsCard({ query }: { query: QuotaDataQuery }) {
  const { t } = useTranslation('dashboard');
  const stats = useChannelStats(query, true);
  // Bucket bounds in milliseconds, read "at most"; from ten seconds on in seconds.
  const latency = (milliseconds: number | null | undefined) => {
    if (milliseconds === null || milliseconds === undefined) return '-';
    if (milliseconds >= overflowLatency) return t('channels.over');
    return milliseconds < 10_000
      ? t('channels.milliseconds', { value: milliseconds.toLocaleString('en-US') })
      : t('channels.seconds', { value: milliseconds / 1000 });
  };
  const columns: TypedColumns<ChannelStatRow> = [
    {
      title: t('channels.name'),
      dataIndex: 'channel_name',
      render: (name: string, row) =>
        row.channel_id > 0 ? <Typography.Text>{`#${row.channel_id} ${name}`}</Typography.Text> : <Tag>{t('channels.noChannel')}</Tag>,
    },
    { title: t('channels.calls'), dataIndex: 'calls', align: 'right' },
    { title: t('channels.errors'), dataIndex: 'errors', align: 'right' },
    {
      title: t('channels.errorRate'),
      key: 'errorRate',
      align: 'right',
      render: (_value, row) => (row.calls > 0 ? `${((row.errors / row.calls) * 100).toFixed(1)}%` : '-'),
    },
    { title: t('channels.p50'), dataIndex: 'latency_p50_ms', align: 'right', render: latency },
    { title: t('channels.p90'), dataIndex: 'latency_p90_ms', align: 'right', render: latency },
    { title: t('channels.p99'), dataIndex: 'latency_p99_ms', align: 'right', render: latency },
    { title: t('channels.cost'), dataIndex: 'quota', align: 'right', render: (quota: number) => <QuotaAmount quota={quota} /> },
  ];
  return (
    <Card title={t('channels.title')} data-testid="channel-stats">
      {stats.isError && <Alert type="error" showIcon title={t('loadFailed', { message: stats.error.message })} />}
      <Table<ChannelStatRow>
        rowKey="channel_id"
        size="small"
        columns={columns}
        dataSource={stats.data ?? []}
        loading={stats.isLoading}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('channels.empty') }}
      />
    </Card>
  );
}
