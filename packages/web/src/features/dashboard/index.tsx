import type { QuotaDataRow } from '@switchboard/contracts';
import { Alert, Col, Flex, Row, Spin } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currencyValueOf, formatCurrencyValue } from '../../lib/quota-display.ts';
import { useQuotaDisplay, useStatusValue } from '../../lib/system-status.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useQuotaData, type QuotaDataQuery } from './api/quota-data.ts';
import { ChannelStatsCard } from './components/channel-stats-card.tsx';
import { CacheSavingsCard } from './components/cache-savings-card.tsx';
import { DashboardFilters } from './components/dashboard-filters.tsx';
import { LiveIndicator } from './components/live-indicator.tsx';
import { PieCard } from './components/pie-card.tsx';
import { StackedBarCard } from './components/stacked-bar-card.tsx';
import { SummaryRow } from './components/summary-row.tsx';
import { stackBy, totalsBy, type Granularity } from './lib/aggregate.ts';
import { isLive } from './lib/live-refresh.ts';

function initialGranularity(value: string | undefined): Granularity {
  return value === 'day' || value === 'week' ? value : 'hour';
}

/**
 * `/detail`: consumption and calls by model and by user (the hourly `quota_data` buckets plus the logs
 * not aggregated yet, refetched while the range reaches now), and per channel for administrators.
 */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const admin = isAdmin(useStoredUser());
  const status = useStatusValue();
  const display = useQuotaDisplay();
  const [granularity, setGranularity] = useState<Granularity>(() => initialGranularity(status?.data_export_default_time));
  const [query, setQuery] = useState<QuotaDataQuery>(() => ({
    start_timestamp: dayjs().subtract(7, 'day').startOf('day').unix(),
    end_timestamp: dayjs().add(1, 'hour').unix(),
    username: '',
  }));
  const data = useQuotaData(query, admin);
  const rows = useMemo(() => data.data ?? [], [data.data]);
  // Charts plot amounts in the display currency (or raw quota), labelled with as many decimals as they need.
  const formatAxis = useCallback((value: number) => formatCurrencyValue(value, display), [display]);
  const amountOf = useCallback((row: QuotaDataRow) => currencyValueOf(row.quota, display), [display]);

  const byModel = useMemo(() => stackBy(rows, granularity, (row) => row.model_name, amountOf), [rows, granularity, amountOf]);
  const byUser = useMemo(() => stackBy(rows, granularity, (row) => row.username ?? '', amountOf), [rows, granularity, amountOf]);
  const callShare = useMemo(
    () =>
      totalsBy(
        rows,
        (row) => row.model_name,
        (row) => row.count,
      ),
    [rows],
  );

  return (
    <Flex vertical gap={16}>
      <Flex gap={8} wrap align="center" justify="space-between">
        <DashboardFilters admin={admin} query={query} granularity={granularity} onQuery={setQuery} onGranularity={setGranularity} />
        {isLive(query.end_timestamp) && <LiveIndicator updatedAt={data.dataUpdatedAt} />}
      </Flex>
      {data.isError && <Alert type="error" showIcon title={t('loadFailed', { message: data.error.message })} />}
      {data.isLoading ? (
        <Spin style={{ display: 'block', margin: '64px auto' }} />
      ) : (
        <>
          <SummaryRow rows={rows} />
          <Row gutter={[16, 16]}>
            <Col xs={24} xl={16}>
              <StackedBarCard title={t('charts.modelConsumption')} data={byModel} format={formatAxis} />
            </Col>
            <Col xs={24} xl={8}>
              <PieCard title={t('charts.modelCalls')} data={callShare} />
            </Col>
            {admin && (
              <Col span={24}>
                <StackedBarCard title={t('charts.userConsumption')} data={byUser} format={formatAxis} />
              </Col>
            )}
            {admin && (
              <Col span={24}>
                <ChannelStatsCard query={query} />
              </Col>
            )}
            {admin && (
              <Col span={24}>
                <CacheSavingsCard />
              </Col>
            )}
          </Row>
        </>
      )}
    </Flex>
  );
}
