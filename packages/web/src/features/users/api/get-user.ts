import { useQuery } from '@tanstack/react-query';
import type { UserView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** GET /api/user/{id}, or GET /api/user/self when editing oneself. */
export function getUser(id: number | 'self'): Promise<UserView> {
  return api.get<UserView>(id === 'self' ? '/api/user/self' : `/api/user/${id}`);
}

export function useUser(id: number | 'self' | undefined) {
  return useQuery({ queryKey: ['users', 'detail', id], queryFn: () => getUser(id ?? 'self'), enabled: id !== undefined, staleTime: 0 });
}
