import type { CacheSavingsLine } from '@switchboard/contracts';
import { Alert, App, Button, Card, Col, Popconfirm, Row, Statistic, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { QuotaAmount } from '../../../components/quota-amount.tsx';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { useCacheSavings, usePurgeCache } from '../api/cache-savings.ts';

const reportDays = 7;

/** Administrators' view of the response cache: hit rate and what it saved, per model and per token, and the purge button. */
export function CacheSavingsCard() {
  const { t } = useTranslation('dashboard');
  const { message } = App.useApp();
  const savings = useCacheSavings(reportDays);
  const purge = usePurgeCache();
  const report = savings.data;
  const lineColumns = <Row extends CacheSavingsLine>(first: TypedColumns<Row>[number]): TypedColumns<Row> => [
    first,
    { title: t('cache.hits'), dataIndex: 'hits', align: 'right' },
    { title: t('cache.misses'), dataIndex: 'misses', align: 'right' },
    { title: t('cache.tokensSaved'), dataIndex: 'tokens_saved', align: 'right' },
    {
      title: t('cache.moneySaved'),
      key: 'quota_saved',
      align: 'right',
      render: (_value: unknown, row: CacheSavingsLine) => <QuotaAmount quota={row.quota_saved} />,
    },
  ];
  const onPurge = async () => {
    try {
      const { dropped } = await purge.mutateAsync();
      void message.success(t('cache.purged', { count: dropped }));
    } catch (error) {
      void message.error(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <Card
      title={t('cache.title', { days: reportDays })}
      data-testid="cache-savings"
      extra={
        <Popconfirm title={t('cache.purgeConfirm')} onConfirm={onPurge} okButtonProps={{ danger: true, 'data-testid': 'cache-purge-confirm' }}>
          <Button danger loading={purge.isPending} data-testid="cache-purge">
            {t('cache.purge')}
          </Button>
        </Popconfirm>
      }
    >
      {savings.isError && <Alert type="error" showIcon title={t('loadFailed', { message: savings.error.message })} />}
      <Row gutter={[16, 16]} style={{ marginBottom: 16 }}>
        <Col xs={12} md={6}>
          <Statistic title={t('cache.hitRate')} value={report ? `${(report.hit_rate * 100).toFixed(1)}%` : '-'} data-testid="cache-hit-rate" />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('cache.hits')} value={report?.hits ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('cache.tokensSaved')} value={report?.tokens_saved ?? 0} />
        </Col>
        <Col xs={12} md={6}>
          <Statistic title={t('cache.moneySaved')} valueRender={() => <QuotaAmount quota={report?.quota_saved ?? 0} />} data-testid="cache-money-saved" />
        </Col>
      </Row>
      <Table
        rowKey="model"
        size="small"
        columns={lineColumns<CacheSavingsLine & { model: string }>({ title: t('cache.model'), dataIndex: 'model' })}
        dataSource={report?.by_model ?? []}
        loading={savings.isLoading}
        pagination={false}
        locale={{ emptyText: t('cache.empty') }}
        data-testid="cache-by-model"
      />
      <Table
        rowKey="token_id"
        size="small"
        style={{ marginTop: 16 }}
        columns={lineColumns<CacheSavingsLine & { token_id: number; token_name: string }>({ title: t('cache.token'), dataIndex: 'token_name' })}
        dataSource={report?.by_token ?? []}
        loading={savings.isLoading}
        pagination={false}
        locale={{ emptyText: t('cache.empty') }}
        data-testid="cache-by-token"
      />
    </Card>
  );
}
