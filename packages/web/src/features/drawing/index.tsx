import type { DrawingView } from '@switchboard/contracts';
import { Alert, Card, Empty, Flex, Modal, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TaskFilterBar, type TaskFilterDraft } from '../../components/task-filter-bar.tsx';
import { useTablePaging } from '../../components/use-table-paging.ts';
import { useStatusValue } from '../../lib/system-status.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useDrawings, type DrawingFilters } from './api/list-drawings.ts';
import { drawingColumns } from './components/drawing-columns.tsx';

/** Thirty days back to an hour ahead, as the spec's default range. */
function defaultDraft(): TaskFilterDraft {
  return { channelId: '', taskId: '', range: [dayjs().subtract(30, 'day'), dayjs().add(1, 'hour')] };
}

/** Drawing times are Unix milliseconds, as the drawing proxy reports them. */
function toFilters(draft: TaskFilterDraft): DrawingFilters {
  return { channel_id: draft.channelId.trim(), mj_id: draft.taskId.trim(), start_timestamp: draft.range[0].valueOf(), end_timestamp: draft.range[1].valueOf() };
}

/** `/midjourney`: drawing tasks. */
export default function DrawingPage() {
  const { t } = useTranslation('drawing');
  const admin = isAdmin(useStoredUser());
  const status = useStatusValue();
  const [draft, setDraft] = useState<TaskFilterDraft>(defaultDraft);
  const [filters, setFilters] = useState<DrawingFilters>(() => toFilters(draft));
  const paging = useTablePaging();
  const [prompt, setPrompt] = useState<string | null>(null);
  const drawings = useDrawings(filters, paging.page, paging.pageSize, admin);
  const columns = useMemo(() => drawingColumns(t, admin, setPrompt), [t, admin]);
  const search = () => {
    setFilters(toFilters(draft));
    paging.firstPage();
  };

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        {admin && status && !status.mj_notify_enabled && <Alert type="info" showIcon title={t('callbackOff')} />}
        <TaskFilterBar
          admin={admin}
          draft={draft}
          onChange={setDraft}
          onSubmit={search}
          labels={{ channel: t('filters.channel'), taskId: t('filters.taskId'), range: t('filters.range'), submit: t('filters.submit') }}
        />
        {drawings.isError && <Alert type="error" showIcon title={t('loadFailed', { message: drawings.error.message })} />}
        <Table<DrawingView>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={drawings.data?.items ?? []}
          loading={drawings.isPending || drawings.isPlaceholderData}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={paging.pagination(drawings.data?.total ?? 0)}
        />
      </Flex>
      <Modal open={prompt !== null} title={t('columns.prompt')} footer={null} onCancel={() => setPrompt(null)}>
        <Typography.Paragraph copyable style={{ whiteSpace: 'pre-wrap' }}>
          {prompt}
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
