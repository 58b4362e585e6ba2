import type { UserView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
}

/** Every user query (list, search, one user) lives under this key; saving invalidates it. */
export const usersKey = ['users'] as const;

/**
 * GET /api/user/?p= (page 0 first) or, with a keyword or group, GET /api/user/search. Both answer a
 * plain array: a full page means there may be another one.
 */
export function listUsers(query: UserListQuery, signal?: AbortSignal): Promise<UserView[]> {
  const paging = { p: query.page, page_size: query.pageSize };
  if (query.keyword || query.group) return api.get<UserView[]>('/api/user/search', { keyword: query.keyword, group: query.group, ...paging }, signal);
  return api.get<UserView[]>('/api/user/', paging, signal);
}
