import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/self/groups`: the groups the admin lets this user pick, mapped to their labels. */
export function listUserGroups(signal?: AbortSignal): Promise<Record<string, string>> {
  return api.get<Record<string, unknown> | null>('/api/user/self/groups', undefined, signal).then((groups) => {
    const labels: Record<string, string> = {};
    for (const [name, value] of Object.entries(groups ?? {})) {
      // Newer servers answer `{ratio, desc}` per group; the classic answer is the label itself.
      labels[name] =
        typeof value === 'string' ? value : typeof value === 'object' && value && 'desc' in value ? String((value as { desc: unknown }).desc) : name;
    }
    return labels;
  });
}

export function useUserGroups() {
  return useQuery({ queryKey: ['user', 'self', 'groups'], queryFn: ({ signal }) => listUserGroups(signal), staleTime: 60_000 });
}
