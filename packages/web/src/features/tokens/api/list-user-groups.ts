import type { UsableGroup } from '@switchboard/contracts';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/self/groups`: the groups the admin lets this user pick (`{ratio, desc}` each, as new-api answers), mapped to their labels. */
export function listUserGroups(signal?: AbortSignal): Promise<Record<string, string>> {
  return api
    .get<Record<string, UsableGroup> | null>('/api/user/self/groups', undefined, signal)
    .then((groups) => Object.fromEntries(Object.entries(groups ?? {}).map(([name, group]) => [name, group.desc || name])));
}

export function useUserGroups() {
  return useQuery({ queryKey: ['user', 'self', 'groups'], queryFn: ({ signal }) => listUserGroups(signal), staleTime: 60_000 });
}
