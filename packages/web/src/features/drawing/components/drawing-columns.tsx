import type { DrawingView } from '@switchboard/contracts';
import { Button, Image, Progress, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { formatUnixTime } from '../../../lib/date-time.ts';

const statusColours: Record<string, string> = {
  SUCCESS: 'green',
  FAILURE: 'red',
  IN_PROGRESS: 'blue',
  SUBMITTED: 'gold',
  NOT_START: 'default',
  MODAL: 'purple',
};
const codeColours: Record<number, string> = { 1: 'green', 21: 'lime', 22: 'orange' };

function elapsedSeconds(drawing: DrawingView): number | undefined {
  if (!drawing.finish_time || !drawing.submit_time) return undefined;
  return Math.max(0, (drawing.finish_time - drawing.submit_time) / 1000);
}

/** Submit time, time taken (red over 60 s), channel, type, task ID, result, status, progress, image, prompts, failure. */
export function drawingColumns(t: TFunction<'drawing'>, admin: boolean, onPrompt: (text: string) => void): TypedColumns<DrawingView> {
  const columns: TypedColumns<DrawingView> = [
    { title: t('columns.submitTime'), dataIndex: 'submit_time', render: (ms: number) => formatUnixTime(ms, 'milliseconds') },
    {
      title: t('columns.duration'),
      key: 'duration',
      render: (_value, drawing) => {
        const seconds = elapsedSeconds(drawing);
        return seconds === undefined ? '-' : <Tag color={seconds > 60 ? 'red' : 'green'}>{t('seconds', { value: seconds.toFixed(1) })}</Tag>;
      },
    },
  ];
  if (admin) columns.push({ title: t('columns.channel'), dataIndex: 'channel_id', render: (id: number) => <Tag>{id}</Tag> });
  columns.push(
    { title: t('columns.action'), dataIndex: 'action', render: (action: string) => <Tag color="blue">{t(`actions.${action}`, { defaultValue: action })}</Tag> },
    { title: t('columns.taskId'), dataIndex: 'mj_id', render: (id: string) => <Typography.Text copyable={{ text: id }}>{id}</Typography.Text> },
    {
      title: t('columns.code'),
      dataIndex: 'code',
      render: (code: number) => <Tag color={codeColours[code] ?? 'default'}>{t(`codes.${code}`, { defaultValue: String(code) })}</Tag>,
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: string) => (
        <Tag color={statusColours[status] ?? 'default'}>{status ? t(`statuses.${status}`, { defaultValue: status }) : t('statuses.submitting')}</Tag>
      ),
    },
    {
      title: t('columns.progress'),
      dataIndex: 'progress',
      // A failed task keeps the progress it reached, drawn red so it never reads as still running.
      render: (progress: string, drawing) => (
        <Progress
          percent={Number.parseInt(progress, 10) || 0}
          status={drawing.status === 'FAILURE' ? 'exception' : undefined}
          size="small"
          style={{ width: 100 }}
        />
      ),
    },
    { title: t('columns.image'), dataIndex: 'image_url', render: (url: string) => (url ? <Image src={url} width={64} alt={t('columns.image')} /> : t('none')) },
    {
      title: t('columns.prompt'),
      dataIndex: 'prompt',
      render: (text: string | null) =>
        text ? (
          <Button type="link" size="small" onClick={() => onPrompt(text)} style={{ maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {text}
          </Button>
        ) : (
          '-'
        ),
    },
    {
      title: t('columns.promptEn'),
      dataIndex: 'prompt_en',
      render: (text: string | null) =>
        text ? (
          <Button type="link" size="small" onClick={() => onPrompt(text)} style={{ maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis' }}>
            {text}
          </Button>
        ) : (
          '-'
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
