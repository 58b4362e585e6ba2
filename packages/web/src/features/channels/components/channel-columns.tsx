import { findChannelType, type ChannelBreakerView, type ChannelView } from '@switchboard/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { splitList } from '../lib/channel-form.ts';
import type { ChannelRow, TagRow } from '../lib/tag-rows.ts';
import { BalanceCell } from './balance-cell.tsx';
import { BreakerStateTag } from './breaker-state-tag.tsx';
import { ChannelRowActions } from './channel-row-actions.tsx';
import { ChannelStatusTag } from './channel-status-tag.tsx';
import { NumberCell } from './number-cell.tsx';
import { ResponseTimeTag } from './response-time-tag.tsx';
import { TagRowActions } from './tag-row-actions.tsx';

export interface ChannelColumnContext {
  t: TFunction<'channels'>;
  formatQuota: (quota: number) => string;
  /** Channels whose circuit breaker is not wholly closed; the others show as closed. */
  breakers: ReadonlyMap<number, ChannelBreakerView>;
  onEdit: (channel: ChannelView) => void;
  onEditTag: (row: TagRow) => void;
  onChannelNumber: (channel: ChannelView, field: 'priority' | 'weight', value: number) => void;
  onTagNumber: (row: TagRow, field: 'priority' | 'weight', value: number) => void;
  onChanged: () => void;
}

function groupTags(groups: string) {
  return (
    <Flex gap={2} wrap>
      {splitList(groups).map((group) => (
        <Tag key={group}>{group}</Tag>
      ))}
    </Flex>
  );
}

/** ID, name, group, type, status, circuit breaker, response time, used/remaining quota, priority, weight, actions. */
export function channelColumns(context: ChannelColumnContext): ColumnsType<ChannelRow> {
  const { t, formatQuota } = context;
  return [
    { title: t('columns.id'), key: 'id', width: 70, responsive: ['md'], render: (_value, row) => (row.kind === 'tag' ? null : row.id) },
    {
      title: t('columns.name'),
      key: 'name',
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <Flex gap={6} align="center">
            <Tag color="purple">{t('tagLabel')}</Tag>
            <Typography.Text strong>{row.tag}</Typography.Text>
          </Flex>
        ) : (
          <Typography.Text>{row.name}</Typography.Text>
        ),
    },
    { title: t('columns.group'), key: 'group', responsive: ['md'], render: (_value, row) => groupTags(row.group) },
    {
      title: t('columns.type'),
      key: 'type',
      responsive: ['md'],
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <Tag>{t('tagChannels', { count: row.channels.length })}</Tag>
        ) : (
          <Tag color="blue">{findChannelType(row.type)?.label ?? t('unknownType', { type: row.type })}</Tag>
        ),
    },
    {
      title: t('columns.status'),
      key: 'status',
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <Tag color={row.enabledCount > 0 ? 'green' : 'red'}>{t('tagEnabled', { enabled: row.enabledCount, total: row.channels.length })}</Tag>
        ) : (
          <ChannelStatusTag status={row.status} otherInfo={row.other_info} />
        ),
    },
    {
      title: t('columns.breaker'),
      key: 'breaker',
      responsive: ['md'],
      render: (_value, row) => (row.kind === 'tag' ? null : <BreakerStateTag breaker={context.breakers.get(row.id)} />),
    },
    {
      title: t('columns.responseTime'),
      key: 'response',
      responsive: ['md'],
      render: (_value, row) => (row.kind === 'tag' ? null : <ResponseTimeTag milliseconds={row.response_time} testedAt={row.test_time} />),
    },
    {
      title: t('columns.quota'),
      key: 'quota',
      responsive: ['md'],
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <QuotaHover quota={row.used_quota}>{t('quota.used', { value: formatQuota(row.used_quota) })}</QuotaHover>
        ) : (
          <BalanceCell channel={row} formatQuota={formatQuota} onChanged={context.onChanged} />
        ),
    },
    {
      title: t('columns.priority'),
      key: 'priority',
      responsive: ['md'],
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <NumberCell value={row.priority} min={-999} label={t('columns.priority')} onCommit={(value) => context.onTagNumber(row, 'priority', value)} />
        ) : (
          <NumberCell value={row.priority} min={-999} label={t('columns.priority')} onCommit={(value) => context.onChannelNumber(row, 'priority', value)} />
        ),
    },
    {
      title: t('columns.weight'),
      key: 'weight',
      responsive: ['md'],
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <NumberCell value={row.weight} min={0} label={t('columns.weight')} onCommit={(value) => context.onTagNumber(row, 'weight', value)} />
        ) : (
          <NumberCell value={row.weight} min={0} label={t('columns.weight')} onCommit={(value) => context.onChannelNumber(row, 'weight', value)} />
        ),
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_value, row) =>
        row.kind === 'tag' ? (
          <TagRowActions row={row} onEdit={context.onEditTag} onChanged={context.onChanged} />
        ) : (
          <ChannelRowActions channel={row} onEdit={context.onEdit} onChanged={context.onChanged} />
        ),
    },
  ];
}
