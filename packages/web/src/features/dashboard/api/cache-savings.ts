import type { CacheSavingsReport } from '@switchboard/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

const savingsKey = ['dashboard', 'response-cache'] as const;

/** `GET /api/response_cache/stats` (administrators): hit rate, tokens and quota saved per model and per token. */
export function useCacheSavings(days: number) {
  return useQuery({
    queryKey: [...savingsKey, days],
    queryFn: ({ signal }) => api.get<CacheSavingsReport>('/api/response_cache/stats', { days }, signal),
  });
}

/** `POST /api/response_cache/purge` (administrators): empties the cache on every instance; data is how many answers were dropped. */
export function usePurgeCache() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ dropped: number }>('/api/response_cache/purge'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: savingsKey }),
  });
}
