import type { UserView } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/{id}`: the user behind a log row (administrators). */
export function useLogUser(id: number, enabled: boolean) {
  return useQuery({ queryKey: ['users', 'one', id], queryFn: ({ signal }) => api.get<UserView>(`/api/user/${id}`, undefined, signal), enabled });
}
