import { Button, Progress, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { AsyncTask } from '../api/list-tasks.ts';

const statusColours: Record<string, string> = {
  SUCCESS: 'green',
  FAILURE: 'red',
  IN_PROGRESS: 'blue',
  QUEUED: 'gold',
  SUBMITTED: 'gold',
  NOT_START: 'default',
  UNKNOWN: 'default',
};
const time = (seconds: number) => (seconds ? dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss') : '-');

/** Submit, finish, progress, time taken, channel (admin), platform, type, task ID (full JSON), status, failure. */
export function taskColumns(t: TFunction<'tasks'>, admin: boolean, onDetails: (task: AsyncTask) => void): ColumnsType<AsyncTask> {
  const columns: ColumnsType<AsyncTask> = [
    { title: t('columns.submitTime'), dataIndex: 'submit_time', render: time },
    { title: t('columns.finishTime'), dataIndex: 'finish_time', render: time },
    {
      title: t('columns.progress'),
      dataIndex: 'progress',
      render: (progress: string) => <Progress percent={Number.parseInt(progress, 10) || 0} size="small" style={{ width: 100 }} />,
    },
    {
      title: t('columns.duration'),
      key: 'duration',
      render: (_value, task) =>
        task.finish_time && task.submit_time ? (
          <Tag color={task.finish_time - task.submit_time > 60 ? 'red' : 'green'}>{t('seconds', { value: task.finish_time - task.submit_time })}</Tag>
        ) : (
          '-'
        ),
    },
  ];
  if (admin) columns.push({ title: t('columns.channel'), dataIndex: 'channel_id', render: (id: number) => <Tag>{id}</Tag> });
  columns.push(
    { title: t('columns.platform'), dataIndex: 'platform', render: (platform: string) => <Tag color="cyan">{platform}</Tag> },
    { title: t('columns.action'), dataIndex: 'action', render: (action: string) => <Tag color="blue">{t(`actions.${action}`, { defaultValue: action })}</Tag> },
    {
      title: t('columns.taskId'),
      dataIndex: 'task_id',
      render: (id: string, task) => (
        <Button type="link" size="small" onClick={() => onDetails(task)}>
          {id}
        </Button>
      ),
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: string) => (
        <Tag color={statusColours[status] ?? 'default'}>{status ? t(`statuses.${status}`, { defaultValue: status }) : t('statuses.submitting')}</Tag>
      ),
    },
    {
      title: t('columns.failReason'),
      dataIndex: 'fail_reason',
      render: (text: string) => (text ? <Typography.Text type="danger">{text}</Typography.Text> : '-'),
    },
  );
  return columns;
}
