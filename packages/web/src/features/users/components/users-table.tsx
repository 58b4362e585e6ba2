import type { ManageAction, UserView } from '@switchboard/contracts';
import { Space, Table, Tag, Tooltip, Typography, type TablePaginationConfig } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupTag } from '../../../components/group-tag.tsx';
import { RoleTag } from '../../../components/role-tag.tsx';
import type { TypedColumns } from '../../../components/table-columns.ts';
import { QuotaHover } from '../../../components/quota-amount.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { UserRowActions } from './user-row-actions.tsx';
import { UserStatusTag } from './user-status-tag.tsx';

interface UsersTableProps {
  users: UserView[];
  loading: boolean;
  pagination: TablePaginationConfig;
  busyId: number | undefined;
  onManage: (user: UserView, action: ManageAction) => void;
  onEdit: (user: UserView) => void;
}

export function UsersTable({ users, loading, pagination, busyId, onManage, onEdit }: UsersTableProps) {
  const { t } = useTranslation('users');
  const formatQuota = useQuotaFormatter();

  const columns: TypedColumns<UserView> = [
    { title: 'ID', dataIndex: 'id', width: 80, responsive: ['md'] },
    {
      title: t('columns.username'),
      dataIndex: 'username',
      render: (_value, user) => (
        <Tooltip title={user.display_name || undefined}>
          <Typography.Text>{user.username}</Typography.Text>
          {user.remark && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 6, fontSize: 12 }}>
              {user.remark}
            </Typography.Text>
          )}
        </Tooltip>
      ),
    },
    { title: t('columns.group'), dataIndex: 'group', responsive: ['md'], render: (group: string) => <GroupTag group={group} /> },
    {
      title: t('columns.stats'),
      key: 'stats',
      render: (_value, user) => (
        <Space size={4} wrap>
          <QuotaHover quota={user.quota} label={t('columns.quota')}>
            <Tag color="green">{formatQuota(user.quota)}</Tag>
          </QuotaHover>
          <QuotaHover quota={user.used_quota} label={t('columns.usedQuota')}>
            <Tag color="blue">{formatQuota(user.used_quota)}</Tag>
          </QuotaHover>
          <Tooltip title={t('columns.requestCount')}>
            <Tag>{user.request_count}</Tag>
          </Tooltip>
        </Space>
      ),
    },
    { title: t('columns.role'), dataIndex: 'role', responsive: ['md'], render: (role: number) => <RoleTag role={role} /> },
    { title: t('columns.status'), key: 'status', render: (_value, user) => <UserStatusTag user={user} /> },
    {
      title: t('columns.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_value, user) => <UserRowActions user={user} busy={busyId === user.id} onManage={onManage} onEdit={onEdit} />,
    },
  ];

  return (
    <Table<UserView>
      rowKey="id"
      columns={columns}
      dataSource={users}
      loading={loading}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('empty') }}
      rowClassName={(user) => (user.DeletedAt ? 'user-row-deregistered' : '')}
      pagination={pagination}
      data-testid="users-table"
    />
  );
}
