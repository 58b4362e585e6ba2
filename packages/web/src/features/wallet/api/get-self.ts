import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export interface SelfQuota {
  username: string;
  quota: number;
  used_quota: number;
  request_count: number;
  group: string;
}

export const selfQueryKey = ['user', 'self'] as const;

/** `GET /api/user/self`: the balance and usage of the logged-in user. */
export function useSelf() {
  return useQuery({ queryKey: selfQueryKey, queryFn: ({ signal }) => api.get<SelfQuota>('/api/user/self', undefined, signal) });
}
