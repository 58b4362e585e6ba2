import { Flex, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { Token } from '../api/token-types.ts';
import { TokenRowActions } from './token-row-actions.tsx';
import { TokenStatusTag } from './token-status-tag.tsx';

interface ColumnContext {
  t: TFunction<'tokens'>;
  formatQuota: (quota: number) => string;
  onCopy: (text: string) => void;
  onEdit: (token: Token) => void;
  onChanged: () => void;
}

export function formatTime(seconds: number): string {
  return dayjs.unix(seconds).format('YYYY-MM-DD HH:mm:ss');
}

/** The token table: name, status with group, used, remaining (or unlimited), created, expiry, actions. */
export function tokenColumns({ t, formatQuota, onCopy, onEdit, onChanged }: ColumnContext): ColumnsType<Token> {
  return [
    { title: t('columns.name'), dataIndex: 'name', render: (name: string) => <Typography.Text strong>{name}</Typography.Text> },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (_status: number, token) => (
        <Flex gap={4} wrap>
          <TokenStatusTag status={token.status} />
          <Tag>{token.group || t('defaultGroup')}</Tag>
        </Flex>
      ),
    },
    { title: t('columns.usedQuota'), dataIndex: 'used_quota', render: (quota: number) => formatQuota(quota) },
    {
      title: t('columns.remainQuota'),
      dataIndex: 'remain_quota',
      render: (quota: number, token) => (token.unlimited_quota ? <Tag color="blue">{t('unlimited')}</Tag> : formatQuota(quota)),
    },
    { title: t('columns.createdTime'), dataIndex: 'created_time', render: (seconds: number) => formatTime(seconds), responsive: ['md'] },
    {
      title: t('columns.expiredTime'),
      dataIndex: 'expired_time',
      render: (seconds: number) => (seconds === -1 ? t('neverExpires') : formatTime(seconds)),
      responsive: ['md'],
    },
    {
      title: t('columns.actions'),
      key: 'actions',
      width: 360,
      render: (_value, token) => <TokenRowActions token={token} onCopy={onCopy} onEdit={onEdit} onChanged={onChanged} />,
    },
  ];
}
