import { useQuery } from '@tanstack/react-query';
import type { UserView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** The key under which everything about the logged-in user is cached (models and invite code below it). */
export const selfKey = ['self'] as const;

/** GET /api/user/self */
export function useSelf() {
  return useQuery({ queryKey: selfKey, queryFn: () => api.get<UserView>('/api/user/self'), staleTime: 0 });
}
