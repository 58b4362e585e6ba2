import { LogType, type LogView } from '@switchboard/contracts';
import { Alert, Card, Empty, Flex, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useTablePaging } from '../../components/use-table-paging.ts';
import { useIsMobile } from '../../lib/use-is-mobile.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useLogs } from './api/list-logs.ts';
import { filterQuery, type LogFilters } from './api/log-filters.ts';
import { logColumns } from './components/log-columns.tsx';
import { LogDetails } from './components/log-details.tsx';
import { LogStats } from './components/log-stats.tsx';
import { LogsFilters } from './components/logs-filters.tsx';
import { defaultLogFilters } from './lib/default-filters.ts';

const pageSizeKey = 'log-page-size';

/** `/log`: usage logs (everyone's for administrators, one's own otherwise). */
export default function LogsPage() {
  const { t } = useTranslation('logs');
  const admin = isAdmin(useStoredUser());
  const [filters, setFilters] = useState<LogFilters>(defaultLogFilters);
  const paging = useTablePaging({ storageKey: pageSizeKey });
  const logs = useLogs(filters, paging.page, paging.pageSize, admin);
  const phone = useIsMobile();
  const columns = useMemo(() => logColumns(t, admin, phone), [t, admin, phone]);
  const summary = (
    <Flex gap={12} align="center" justify={phone ? 'start' : 'end'} wrap>
      <LogStats filters={filters} admin={admin} />
      <ExportCsvButton path={admin ? '/api/export/logs' : '/api/export/logs/self'} query={filterQuery(filters, admin)} />
    </Flex>
  );

  // The title keeps its width; on a phone the stats move under it instead of squeezing it to nothing.
  return (
    <Card title={t('title')} extra={phone ? undefined : summary} styles={{ title: { flex: 'none', marginInlineEnd: 12 } }}>
      <Flex vertical gap={16}>
        {phone && summary}
        <LogsFilters
          admin={admin}
          value={filters}
          onChange={(next) => {
            setFilters(next);
            paging.firstPage();
          }}
        />
        {logs.isError && <Alert type="error" showIcon title={t('loadFailed', { message: logs.error.message })} />}
        <Table<LogView>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={logs.data?.items ?? []}
          loading={logs.isFetching}
          scroll={{ x: 'max-content' }}
          expandable={{
            expandedRowRender: (entry) => <LogDetails entry={entry} admin={admin} />,
            rowExpandable: (entry) => entry.type === LogType.consume || Boolean(entry.content),
          }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={{ ...paging.pagination(logs.data?.total ?? 0), showTotal: (total) => t('total', { total }) }}
        />
      </Flex>
    </Card>
  );
}
