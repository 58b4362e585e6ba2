import type { UsableGroup } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/models`: the models the playground offers. */
export function useModels() {
  return useQuery({
    queryKey: ['user', 'models'],
    queryFn: ({ signal }) => api.get<string[] | null>('/api/user/models', undefined, signal).then((models) => models ?? []),
    staleTime: 60_000,
  });
}

/** `GET /api/user/self/groups`: the names of the groups the user may pick (each `{ratio, desc}`). */
export function useUsableGroups() {
  return useQuery({
    queryKey: ['user', 'self', 'groups', 'playground'],
    queryFn: ({ signal }) =>
      api.get<Record<string, UsableGroup> | null>('/api/user/self/groups', undefined, signal).then((groups) => Object.keys(groups ?? {})),
    staleTime: 60_000,
  });
}
