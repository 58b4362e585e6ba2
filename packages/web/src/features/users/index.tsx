import type { ManageAction, UserView } from '@switchboard/contracts';
import { Alert, App, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportCsvButton } from '../../components/export-csv-button.tsx';
import { useSearchableList } from '../../components/use-searchable-list.ts';
import { ApiError } from '../../lib/api-client.ts';
import { useStoredUser } from '../../lib/use-stored-user.ts';
import { listUsers, usersKey } from './api/list-users.ts';
import { manageUser } from './api/manage-user.ts';
import { AddUserDrawer } from './components/add-user-drawer.tsx';
import { UserEditDrawer } from './components/user-edit-drawer.tsx';
import { UsersSearchBar } from './components/users-search-bar.tsx';
import { UsersTable } from './components/users-table.tsx';
import { useUrlListState } from './lib/use-url-list-state.ts';

/** /user: search, list, add, edit and manage users (administrators). */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const actor = useStoredUser();
  const state = useUrlListState();
  const list = useSearchableList({
    queryKey: usersKey,
    state,
    pages: 'replace',
    fetchPage: (search, page, pageSize, signal) => listUsers({ ...search, page, pageSize }, signal),
    rowKey: (user: UserView) => user.id,
  });
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<number>();
  const [busyId, setBusyId] = useState<number>();

  const manage = async (user: UserView, action: ManageAction) => {
    setBusyId(user.id);
    try {
      await manageUser(user.id, action);
      void message.success(t('actions.done'));
      // The whole row is read again: deregistering changes more than the role and status the answer carries.
      await list.refresh();
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusyId(undefined);
    }
  };

  return (
    <Card title={t('title')} extra={<ExportCsvButton path="/api/export/users" />}>
      <Flex vertical gap={16}>
        <UsersSearchBar value={list.search} onSearch={list.setSearch} onAdd={() => setAdding(true)} onRefresh={list.refresh} refreshing={list.fetching} />
        {list.error && <Alert type="error" showIcon title={t('loadFailed', { message: list.error.message })} data-testid="users-load-error" />}
        <UsersTable
          users={list.rows}
          loading={list.loading}
          pagination={list.pagination}
          busyId={busyId}
          onManage={(user, action) => void manage(user, action)}
          onEdit={(user) => setEditingId(user.id)}
        />
      </Flex>
      <AddUserDrawer
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={() => {
          setAdding(false);
          void list.refresh();
        }}
      />
      <UserEditDrawer
        userId={editingId !== undefined && editingId === actor?.id ? 'self' : editingId}
        administrative={editingId !== actor?.id}
        onClose={() => setEditingId(undefined)}
      />
    </Card>
  );
}
