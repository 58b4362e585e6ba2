import type { UserView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const selfQueryKey = ['user', 'self'] as const;

/** `GET /api/user/self`: the balance and usage of the logged-in user. */
export function useSelf() {
  return useQuery({ queryKey: selfQueryKey, queryFn: ({ signal }) => api.get<UserView>('/api/user/self', undefined, signal) });
}
