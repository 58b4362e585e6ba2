import type { UserView } from '@switchboard/contracts';
import { getListPage } from '../../../lib/list-dialect.ts';

export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
}

/** Every user query (list, search, one user) lives under this key; saving invalidates it. */
export const usersKey = ['users'] as const;

/**
 * GET /api/user/?p= (page 0 first here) or, with a keyword or group, GET /api/user/search, in either
 * list dialect: a full page means there may be another one.
 */
export function listUsers(query: UserListQuery, signal?: AbortSignal): Promise<UserView[]> {
  if (query.keyword || query.group)
    return getListPage<UserView>('/api/user/search', { keyword: query.keyword, group: query.group }, query.page, query.pageSize, signal);
  return getListPage<UserView>('/api/user/', {}, query.page, query.pageSize, signal);
}
