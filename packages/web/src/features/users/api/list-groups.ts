import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/group/: the group names an administrator can assign. */
export function useGroups(enabled = true) {
  return useQuery({ queryKey: ['groups'], queryFn: () => api.get<string[]>('/api/group/'), enabled, staleTime: 60_000 });
}
