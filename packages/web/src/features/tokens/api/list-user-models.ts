import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** `GET /api/user/models`: the model names this user's group may call. */
export function listUserModels(signal?: AbortSignal): Promise<string[]> {
  return api.get<string[] | null>('/api/user/models', undefined, signal).then((models) => models ?? []);
}

export function useUserModels(enabled = true) {
  return useQuery({ queryKey: ['user', 'models'], queryFn: ({ signal }) => listUserModels(signal), staleTime: 60_000, enabled });
}
