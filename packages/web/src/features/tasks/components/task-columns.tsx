import type { TaskView } from '@switchboard/contracts';
import { Button, Progress, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { formatUnixTime } from '../../../lib/date-time.ts';

const statusColours: Record<string, string> = {
  SUCCESS: 'green',
  FAILURE: 'red',
  IN_PROGRESS: 'blue',
  QUEUED: 'gold',
  SUBMITTED: 'gold',
  NOT_START: 'default',
  UNKNOWN: 'default',
};

/** Submit, finish, progress, time taken, channel (admin), platform, type, task ID (full JSON), status, failure. */
export function taskColumns(t: TFunction<'tasks'>, admin: boolean, onDetails: (task: TaskView) => void): TypedColumns<TaskView> {
  const columns: TypedColumns<TaskView> = [
    { title: t('columns.submitTime'), dataIndex: 'submit_time', render: (seconds: number) => formatUnixTime(seconds) },
    { title: t('columns.finishTime'), dataIndex: 'finish_time', render: (seconds: number) => formatUnixTime(seconds) },
    {
      title: t('columns.progress'),
      dataIndex: 'progress',
      // A failed task keeps the progress it reached, drawn red so it never reads as still running.
      render: (progress: string, task) => (
        <Progress
          percent={Number.parseInt(progress, 10) || 0}
          status={task.status === 'FAILURE' ? 'exception' : undefined}
          size="small"
          style={{ width: 100 }}
        />
      ),
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
      render: (text: string | null) => (text ? <Typography.Text type="danger">{text}</Typography.Text> : '-'),
    },
  );
  return columns;
}
