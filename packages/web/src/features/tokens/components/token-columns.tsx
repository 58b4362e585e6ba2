import type { TokenView } from '@switchboard/contracts';
import { Flex, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { QuotaAmount } from '../../../components/quota-amount.tsx';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { formatUnixTime } from '../../../lib/date-time.ts';
import { TokenBudgetCell } from './token-budget-cell.tsx';
import { TokenRowActions } from './token-row-actions.tsx';
import { TokenStatusTag } from './token-status-tag.tsx';

interface ColumnContext {
  t: TFunction<'tokens'>;
  onCopy: (text: string) => void;
  onShowKey: (token: TokenView, key: string) => void;
  onEdit: (token: TokenView) => void;
  onChanged: () => void;
}

/** The token table: name, status with group, used, remaining (or unlimited), created, expiry, actions. */
export function tokenColumns({ t, onCopy, onShowKey, onEdit, onChanged }: ColumnContext): TypedColumns<TokenView> {
  return [
    { title: t('columns.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      responsive: ['sm'],
      render: (_status: number, token) => (
        <Flex gap={4} wrap>
          <TokenStatusTag status={token.status} />
          <Tag>{token.group || t('defaultGroup')}</Tag>
        </Flex>
      ),
    },
    { title: t('columns.usedQuota'), dataIndex: 'used_quota', responsive: ['sm'], render: (quota: number) => <QuotaAmount quota={quota} /> },
    {
      title: t('columns.remainQuota'),
      dataIndex: 'remain_quota',
      render: (quota: number, token) => (token.unlimited_quota ? <Tag color="blue">{t('unlimited')}</Tag> : <QuotaAmount quota={quota} />),
    },
    { title: t('columns.budget'), key: 'budget', render: (_value, token) => <TokenBudgetCell tokenId={token.id} />, responsive: ['md'] },
    { title: t('columns.createdTime'), dataIndex: 'created_time', render: (seconds: number) => formatUnixTime(seconds), responsive: ['md'] },
    {
      title: t('columns.expiredTime'),
      dataIndex: 'expired_time',
      render: (seconds: number) => (seconds === -1 ? t('neverExpires') : formatUnixTime(seconds)),
      responsive: ['md'],
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_value, token) => <TokenRowActions token={token} onCopy={onCopy} onShowKey={onShowKey} onEdit={onEdit} onChanged={onChanged} />,
    },
  ];
}
