import { Alert, Button, Card, DatePicker, Empty, Flex, Input, Modal, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions } from '../../components/use-appending-pages.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useTasks, type AsyncTask, type TaskFilters } from './api/list-tasks.ts';
import { taskColumns } from './components/task-columns.tsx';

/** From the start of today, as the spec's default. */
function defaultFilters(): TaskFilters {
  return { channel_id: '', task_id: '', start_timestamp: dayjs().startOf('day').unix(), end_timestamp: dayjs().add(1, 'hour').unix() };
}

/** `/task`: async (music and lyrics) tasks. */
export default function TasksPage() {
  const { t } = useTranslation('tasks');
  const admin = isAdmin(useStoredUser());
  const [draft, setDraft] = useState<TaskFilters>(defaultFilters);
  const [filters, setFilters] = useState<TaskFilters>(draft);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [details, setDetails] = useState<AsyncTask | null>(null);
  const tasks = useTasks(filters, page, pageSize, admin);
  const columns = useMemo(() => taskColumns(t, admin, setDetails), [t, admin]);
  const search = () => {
    setFilters({ ...draft, task_id: draft.task_id.trim(), channel_id: draft.channel_id.trim() });
    setPage(1);
  };

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <Flex gap={8} wrap>
          {admin && <Input allowClear placeholder={t('filters.channel')} aria-label={t('filters.channel')} value={draft.channel_id} onChange={(event) => setDraft({ ...draft, channel_id: event.target.value.replace(/\D/g, '') })} onPressEnter={search} style={{ width: 120 }} />}
          <Input allowClear placeholder={t('filters.taskId')} aria-label={t('filters.taskId')} value={draft.task_id} onChange={(event) => setDraft({ ...draft, task_id: event.target.value })} onPressEnter={search} style={{ width: 200 }} />
          <DatePicker.RangePicker
            showTime
            allowClear={false}
            value={[dayjs.unix(draft.start_timestamp), dayjs.unix(draft.end_timestamp)]}
            onChange={(dates) => {
              if (dates?.[0] && dates[1]) setDraft({ ...draft, start_timestamp: dates[0].unix(), end_timestamp: dates[1].unix() });
            }}
            aria-label={t('filters.range')}
          />
          <Button type="primary" onClick={search}>
            {t('filters.submit')}
          </Button>
        </Flex>
        {tasks.isError && <Alert type="error" showIcon title={t('loadFailed', { message: tasks.error.message })} />}
        <Table<AsyncTask>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={tasks.data?.items ?? []}
          loading={tasks.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={{
            current: page,
            pageSize,
            total: tasks.data?.total ?? 0,
            pageSizeOptions,
            showSizeChanger: true,
            onChange: (nextPage, nextSize) => {
              setPage(nextSize === pageSize ? nextPage : 1);
              setPageSize(nextSize);
            },
          }}
        />
      </Flex>
      <Modal open={details !== null} title={t('details', { id: details?.task_id ?? '' })} footer={null} width={720} onCancel={() => setDetails(null)}>
        <Typography.Paragraph copyable>
          <pre style={{ maxHeight: 480, overflow: 'auto', margin: 0 }}>{JSON.stringify(details, null, 2)}</pre>
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
