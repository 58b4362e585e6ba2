import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { selfKey } from './get-self.ts';

/** GET /api/user/models: the model names this user may call. */
export function useSelfModels() {
  return useQuery({ queryKey: [...selfKey, 'models'], queryFn: () => api.get<string[]>('/api/user/models') });
}
