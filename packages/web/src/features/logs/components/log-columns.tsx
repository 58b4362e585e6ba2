import { LogType, type LogView } from '@switchboard/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { QuotaAmount } from '../../../components/quota-amount.tsx';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { formatUnixTime } from '../../../lib/date-time.ts';
import { durationColour, firstTokenColour, parseOther } from '../lib/log-other.ts';
import { useLogContent } from './log-content-text.tsx';
import { UserInfoButton } from './user-info-button.tsx';

const typeColours: Record<number, string> = {
  [LogType.topup]: 'cyan',
  [LogType.consume]: 'green',
  [LogType.manage]: 'orange',
  [LogType.system]: 'purple',
  [LogType.error]: 'red',
  [LogType.refund]: 'blue',
};

function TimingCell({ entry, t }: { entry: LogView; t: TFunction<'logs'> }) {
  if (entry.type !== LogType.consume && entry.type !== LogType.error) return null;
  const other = parseOther(entry.other);
  const firstToken = other.frt !== undefined && other.frt > 0 ? other.frt / 1000 : undefined;
  return (
    <Flex gap={2} wrap>
      <Tag color={durationColour(entry.use_time)}>{t('timing.seconds', { value: entry.use_time })}</Tag>
      {entry.is_stream && firstToken !== undefined && (
        <Tag color={firstTokenColour(firstToken)}>{t('timing.firstToken', { value: firstToken.toFixed(1) })}</Tag>
      )}
      <Tag color={entry.is_stream ? 'blue' : 'default'}>{entry.is_stream ? t('timing.stream') : t('timing.nonStream')}</Tag>
    </Flex>
  );
}

function LogContentCell({ entry }: { entry: LogView }) {
  const content = useLogContent(entry);
  return (
    <Typography.Paragraph ellipsis={{ rows: 2, tooltip: content }} style={{ marginBottom: 0, maxWidth: 240, minWidth: 120 }}>
      {content}
    </Typography.Paragraph>
  );
}

/** Time, channel (admin), user (admin), token, group, type, model, timing, tokens, cost, retries (admin), details. */
export function logColumns(t: TFunction<'logs'>, admin: boolean, phone: boolean): TypedColumns<LogView> {
  // On a phone the date and the time of day take two lines, so time, model and cost fit the screen.
  const columns: TypedColumns<LogView> = [
    {
      title: t('columns.time'),
      dataIndex: 'created_at',
      render: (seconds: number) => <span style={phone ? { display: 'inline-block', maxWidth: 80 } : undefined}>{formatUnixTime(seconds)}</span>,
    },
  ];
  if (admin) {
    columns.push(
      {
        title: t('columns.channel'),
        dataIndex: 'channel',
        responsive: ['md'],
        render: (channel: number | undefined, entry) => (channel ? <Tag title={entry.channel_name}>{channel}</Tag> : null),
      },
      {
        title: t('columns.user'),
        dataIndex: 'username',
        responsive: ['md'],
        render: (username: string, entry) => <UserInfoButton userId={entry.user_id} username={username} />,
      },
    );
  }
  columns.push(
    { title: t('columns.token'), dataIndex: 'token_name', responsive: ['md'], render: (name: string) => (name ? <Tag color="geekblue">{name}</Tag> : null) },
    { title: t('columns.group'), dataIndex: 'group', responsive: ['md'], render: (group: string) => (group ? <Tag>{group}</Tag> : null) },
    {
      title: t('columns.type'),
      dataIndex: 'type',
      responsive: ['md'],
      render: (type: number) => <Tag color={typeColours[type] ?? 'default'}>{t(`types.${type}`, { defaultValue: t('types.unknown') })}</Tag>,
    },
    { title: t('columns.model'), dataIndex: 'model_name', render: (model: string) => (model ? <Tag color="volcano">{model}</Tag> : null) },
    { title: t('columns.timing'), key: 'timing', responsive: ['md'], render: (_value, entry) => <TimingCell entry={entry} t={t} /> },
    {
      title: t('columns.prompt'),
      dataIndex: 'prompt_tokens',
      responsive: ['md'],
      render: (tokens: number, entry) => (entry.type === LogType.consume ? tokens : null),
    },
    {
      title: t('columns.completion'),
      dataIndex: 'completion_tokens',
      responsive: ['md'],
      render: (tokens: number, entry) => (entry.type === LogType.consume ? tokens : null),
    },
    {
      title: t('columns.cost'),
      dataIndex: 'quota',
      render: (quota: number, entry) =>
        entry.type === LogType.topup || entry.type === LogType.consume || entry.type === LogType.refund ? <QuotaAmount quota={quota} /> : null,
    },
  );
  if (admin) {
    columns.push({
      title: t('columns.retry'),
      key: 'retry',
      responsive: ['md'],
      render: (_value, entry) => {
        const chain = parseOther(entry.other).admin_info?.use_channel;
        return chain && chain.length > 1 ? <Typography.Text>{chain.join(' → ')}</Typography.Text> : null;
      },
    });
  }
  // Pinned to the right edge, so a wide table never pushes the details off-screen; on a phone the row's
  // time, model and cost fit, and the details are in the expanded row.
  columns.push({
    title: t('columns.details'),
    dataIndex: 'content',
    fixed: 'right',
    responsive: ['md'],
    render: (_: string, entry: LogView) => <LogContentCell entry={entry} />,
  });
  return columns;
}
