import { Alert, Button, Card, DatePicker, Empty, Flex, Input, Modal, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageSizeOptions } from '../../components/use-appending-pages.ts';
import { useStatusValue } from '../../lib/system-status.ts';
import { isAdmin, useStoredUser } from '../../lib/use-stored-user.ts';
import { useDrawings, type Drawing, type DrawingFilters } from './api/list-drawings.ts';
import { drawingColumns } from './components/drawing-columns.tsx';

/** Thirty days back to an hour ahead, as the spec's default range. */
function defaultFilters(): DrawingFilters {
  return { channel_id: '', mj_id: '', start_timestamp: dayjs().subtract(30, 'day').valueOf(), end_timestamp: dayjs().add(1, 'hour').valueOf() };
}

/** `/midjourney`: drawing tasks. */
export default function DrawingPage() {
  const { t } = useTranslation('drawing');
  const admin = isAdmin(useStoredUser());
  const status = useStatusValue();
  const [draft, setDraft] = useState<DrawingFilters>(defaultFilters);
  const [filters, setFilters] = useState<DrawingFilters>(draft);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const [prompt, setPrompt] = useState<string | null>(null);
  const drawings = useDrawings(filters, page, pageSize, admin);
  const columns = useMemo(() => drawingColumns(t, admin, setPrompt), [t, admin]);
  const search = () => {
    setFilters({ ...draft, mj_id: draft.mj_id.trim(), channel_id: draft.channel_id.trim() });
    setPage(1);
  };

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        {admin && status && !status.mj_notify_enabled && <Alert type="info" showIcon title={t('callbackOff')} />}
        <Flex gap={8} wrap>
          {admin && <Input allowClear placeholder={t('filters.channel')} aria-label={t('filters.channel')} value={draft.channel_id} onChange={(event) => setDraft({ ...draft, channel_id: event.target.value.replace(/\D/g, '') })} onPressEnter={search} style={{ width: 120 }} />}
          <Input allowClear placeholder={t('filters.taskId')} aria-label={t('filters.taskId')} value={draft.mj_id} onChange={(event) => setDraft({ ...draft, mj_id: event.target.value })} onPressEnter={search} style={{ width: 200 }} />
          <DatePicker.RangePicker
            showTime
            allowClear={false}
            value={[dayjs(draft.start_timestamp), dayjs(draft.end_timestamp)]}
            onChange={(dates) => {
              if (dates?.[0] && dates[1]) setDraft({ ...draft, start_timestamp: dates[0].valueOf(), end_timestamp: dates[1].valueOf() });
            }}
            aria-label={t('filters.range')}
          />
          <Button type="primary" onClick={search}>
            {t('filters.submit')}
          </Button>
        </Flex>
        {drawings.isError && <Alert type="error" showIcon title={t('loadFailed', { message: drawings.error.message })} />}
        <Table<Drawing>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={drawings.data?.items ?? []}
          loading={drawings.isFetching}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: <Empty description={t('empty')} /> }}
          pagination={{
            current: page,
            pageSize,
            total: drawings.data?.total ?? 0,
            pageSizeOptions,
            showSizeChanger: true,
            onChange: (nextPage, nextSize) => {
              setPage(nextSize === pageSize ? nextPage : 1);
              setPageSize(nextSize);
            },
          }}
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
