import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface LogUserInfo {
  id: number;
  username: string;
  display_name?: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group?: string;
}

/** `GET /api/user/{id}`: the user behind a log row (administrators). */
export function useLogUser(id: number, enabled: boolean) {
  return useQuery({ queryKey: ['users', 'one', id], queryFn: ({ signal }) => api.get<LogUserInfo>(`/api/user/${id}`, undefined, signal), enabled });
}
