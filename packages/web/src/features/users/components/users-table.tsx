import type { ManageAction, UserView } from '@switchboard/contracts';
import { Space, Table, Tag, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupTag } from '../../../components/group-tag.tsx';
import { RoleTag } from '../../../components/role-tag.tsx';
import { useQuotaFormatter } from '../../../lib/system-status.ts';
import { UserRowActions } from './user-row-actions.tsx';
import { UserStatusTag } from './user-status-tag.tsx';

export const pageSizes = [10, 20, 50, 100];

interface UsersTableProps {
  users: UserView[];
  loading: boolean;
  page: number;
  pageSize: number;
  busyId: number | undefined;
  onPageChange: (page: number, pageSize: number) => void;
  onManage: (user: UserView, action: ManageAction) => void;
  onEdit: (user: UserView) => void;
}

export function UsersTable({ users, loading, page, pageSize, busyId, onPageChange, onManage, onEdit }: UsersTableProps) {
  const { t } = useTranslation('users');
  const formatQuota = useQuotaFormatter();

  const columns: TableColumnsType<UserView> = [
    { title: 'ID', dataIndex: 'id', width: 80 },
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
    { title: t('columns.group'), dataIndex: 'group', render: (group: string) => <GroupTag group={group} /> },
    {
      title: t('columns.stats'),
      key: 'stats',
      render: (_value, user) => (
        <Space size={4} wrap>
          <Tooltip title={t('columns.quota')}>
            <Tag color="green">{formatQuota(user.quota)}</Tag>
          </Tooltip>
          <Tooltip title={t('columns.usedQuota')}>
            <Tag color="blue">{formatQuota(user.used_quota)}</Tag>
          </Tooltip>
          <Tooltip title={t('columns.requestCount')}>
            <Tag>{user.request_count}</Tag>
          </Tooltip>
        </Space>
      ),
    },
    { title: t('columns.role'), dataIndex: 'role', render: (role: number) => <RoleTag role={role} /> },
    { title: t('columns.status'), key: 'status', render: (_value, user) => <UserStatusTag user={user} /> },
    {
      title: t('columns.actions'),
      key: 'actions',
      render: (_value, user) => <UserRowActions user={user} busy={busyId === user.id} onManage={onManage} onEdit={onEdit} />,
    },
  ];

  // The API answers one page without a total: a full page means another may follow.
  const total = page * pageSize + users.length + (users.length === pageSize ? 1 : 0);
  return (
    <Table<UserView>
      rowKey="id"
      columns={columns}
      dataSource={users}
      loading={loading}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: t('empty') }}
      rowClassName={(user) => (user.DeletedAt ? 'user-row-deregistered' : '')}
      pagination={{
        current: page + 1,
        pageSize,
        total,
        pageSizeOptions: pageSizes,
        showSizeChanger: true,
        onChange: (next, size) => onPageChange(size === pageSize ? next - 1 : 0, size),
      }}
      data-testid="users-table"
    />
  );
}
