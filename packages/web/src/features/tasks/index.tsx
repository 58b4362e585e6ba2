import type { TaskView } from '@switchboard/contracts';
import { Alert, Card, Empty, Flex, Modal, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaskFilterBar, type TaskFilterDraft } from '../../components/task-filter-bar.tsx';
import { useTablePaging } from '../../components/use-table-paging.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useTasks, type TaskFilters } from './api/list-tasks.ts';
import { taskColumns } from './components/task-columns.tsx';

/** From the start of today to an hour ahead, as the spec's default. */
function defaultDraft(): TaskFilterDraft {
  return { channelId: '', taskId: '', range: [dayjs().startOf('day'), dayjs().add(1, 'hour')] };
}

/** Task times are Unix seconds. */
function toFilters(draft: TaskFilterDraft): TaskFilters {
  return { channel_id: draft.channelId.trim(), task_id: draft.taskId.trim(), start_timestamp: draft.range[0].unix(), end_timestamp: draft.range[1].unix() };
}

/** `/task`: async (music and lyrics) tasks. */
export default function TasksPage() {
  const { t } = useTranslation('tasks');
  const admin = isAdmin(useStoredUser());
  const [draft, setDraft] = useState<TaskFilterDraft>(defaultDraft);
  const [filters, setFilters] = useState<TaskFilters>(() => toFilters(draft));
  const paging = useTablePaging();
  const [details, setDetails] = useState<TaskView | null>(null);
  const tasks = useTasks(filters, paging.page, paging.pageSize, admin);
  const columns = useMemo(() => taskColumns(t, admin, setDetails), [t, admin]);
  const detailsJson = details ? JSON.stringify(details, null, 2) : '';
  const search = () => {
    setFilters(toFilters(draft));
    paging.firstPage();
  };

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <TaskFilterBar
          admin={admin}
          draft={draft}
          onChange={setDraft}
          onSubmit={search}
          labels={{ channel: t('filters.channel'), taskId: t('filters.taskId'), range: t('filters.range'), submit: t('filters.submit') }}
        />
        {tasks.isError && <Alert type="error" showIcon title={t('loadFailed', { message: tasks.error.message })} />}
        <Table<TaskView>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={tasks.data?.items ?? []}
          loading={tasks.isPending || tasks.isPlaceholderData}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={paging.pagination(tasks.data?.total ?? 0)}
        />
      </Flex>
      <Modal open={details !== null} title={t('details', { id: details?.task_id ?? '' })} footer={null} width={720} onCancel={() => setDetails(null)}>
        {/* The copy button needs the text itself: copying the <pre> child would copy "[object Object]". */}
        <Typography.Paragraph copyable={{ text: detailsJson }}>
          <pre style={{ maxHeight: 480, overflow: 'auto', margin: 0 }}>{detailsJson}</pre>
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
