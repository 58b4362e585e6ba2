import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/channel/models`: every model the gateway knows (`[{id}]`), for "fill all". */
export function useAllModels() {
  return useQuery({
    queryKey: ['channels', 'all-models'],
    queryFn: ({ signal }) => api.get<Array<{ id: string }> | null>('/api/channel/models', undefined, signal).then((rows) => (rows ?? []).map((row) => row.id)),
    staleTime: 5 * 60_000,
  });
}

/** `GET /api/models`: model names per channel type, for "fill related" (cached for the session). */
export function useModelsByType() {
  return useQuery({
    queryKey: ['channels', 'models-by-type'],
    queryFn: ({ signal }) => api.get<Record<string, string[]> | null>('/api/models', undefined, signal).then((map) => map ?? {}),
    staleTime: Infinity,
  });
}

/** `GET /api/group/`: every group name. */
export function useGroups() {
  return useQuery({
    queryKey: ['groups'],
    queryFn: ({ signal }) => api.get<string[] | null>('/api/group/', undefined, signal).then((groups) => groups ?? []),
    staleTime: 60_000,
  });
}
