import type { ManageAction, UserView } from '@switchboard/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../lib/api-client.ts';
import { useStoredUser } from '../../lib/use-stored-user.ts';
import { usersKey, useUsers } from './api/list-users.ts';
import { manageUser } from './api/manage-user.ts';
import { AddUserDrawer } from './components/add-user-drawer.tsx';
import { UserEditDrawer } from './components/user-edit-drawer.tsx';
import { UsersSearchBar, type UserSearch } from './components/users-search-bar.tsx';
import { pageSizes, UsersTable } from './components/users-table.tsx';

/** Table state lives in the URL (?keyword=&group=&p=&size=) so a refresh or a shared link keeps it. */
function useUrlState() {
  const [params, setParams] = useSearchParams();
  const size = Number(params.get('size'));
  const state = {
    keyword: params.get('keyword') ?? '',
    group: params.get('group') ?? '',
    page: Math.max(0, Number(params.get('p')) || 0),
    pageSize: pageSizes.includes(size) ? size : 10,
  };
  const update = (next: Partial<typeof state>) => {
    const merged = { ...state, ...next };
    const search: Record<string, string> = {};
    if (merged.keyword) search.keyword = merged.keyword;
    if (merged.group) search.group = merged.group;
    if (merged.page) search.p = String(merged.page);
    if (merged.pageSize !== 10) search.size = String(merged.pageSize);
    setParams(search, { replace: true });
  };
  return [state, update] as const;
}

/** /user: search, list, add, edit and manage users (administrators). */
export default function UsersPage() {
  const { t } = useTranslation('users');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const actor = useStoredUser();
  const [state, update] = useUrlState();
  const users = useUsers(state);
  const [adding, setAdding] = useState(false);
  const [editingId, setEditingId] = useState<number>();
  const [busyId, setBusyId] = useState<number>();

  const manage = async (user: UserView, action: ManageAction) => {
    setBusyId(user.id);
    try {
      const next = await manageUser(user.id, action);
      // Patch the row in place from the answer, then refetch (a deregistered row changes more than role and status).
      queryClient.setQueryData<UserView[]>([...usersKey, state], (rows) => rows?.map((row) => (row.id === user.id ? { ...row, ...next } : row)));
      void message.success(t('actions.done'));
      await queryClient.invalidateQueries({ queryKey: usersKey });
    } catch (error) {
      void message.error(error instanceof ApiError ? error.message : String(error));
    } finally {
      setBusyId(undefined);
    }
  };

  return (
    <Card title={t('title')}>
      <Flex vertical gap={16}>
        <UsersSearchBar
          value={{ keyword: state.keyword, group: state.group }}
          onSearch={(search: UserSearch) => update({ ...search, page: 0 })}
          onAdd={() => setAdding(true)}
          onRefresh={() => void users.refetch()}
          refreshing={users.isFetching}
        />
        {users.isError && <Alert type="error" showIcon title={t('loadFailed', { message: users.error.message })} data-testid="users-load-error" />}
        <UsersTable
          users={users.data ?? []}
          loading={users.isFetching}
          page={state.page}
          pageSize={state.pageSize}
          busyId={busyId}
          onPageChange={(page, pageSize) => update({ page, pageSize })}
          onManage={(user, action) => void manage(user, action)}
          onEdit={(user) => setEditingId(user.id)}
        />
      </Flex>
      <AddUserDrawer
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={() => {
          setAdding(false);
          void queryClient.invalidateQueries({ queryKey: usersKey });
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
