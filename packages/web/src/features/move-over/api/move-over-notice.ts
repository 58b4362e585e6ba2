import type { MoveOverNotice } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const queryKey = ['move-over-notice'];

/** `GET /api/move-over` (root): what the one-api mapping step did, or null when there is nothing to show. */
export function useMoveOverNotice() {
  return useQuery<MoveOverNotice | null>({
    queryKey,
    queryFn: ({ signal }) => api.get<MoveOverNotice | null>('/api/move-over', undefined, signal).then((notice) => notice ?? null),
    staleTime: Infinity,
  });
}

/** `POST /api/move-over/dismiss`: the notice is not shown again, on any browser. */
export function useDismissMoveOverNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<null>('/api/move-over/dismiss'),
    onSuccess: () => client.setQueryData(queryKey, null),
  });
}
