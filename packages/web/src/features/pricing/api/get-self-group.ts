import type { UserView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/self`: only the group matters here (a visitor has none). */
export function useSelfGroup(loggedIn: boolean) {
  return useQuery({
    queryKey: ['user', 'self'],
    queryFn: ({ signal }) => api.get<UserView>('/api/user/self', undefined, signal),
    enabled: loggedIn,
    select: (self) => self.group || 'default',
  });
}
