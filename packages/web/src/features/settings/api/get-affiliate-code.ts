import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { selfKey } from './get-self.ts';

/** GET /api/user/aff: the user's invite code (created on first call). */
export function useAffiliateCode() {
  return useQuery({ queryKey: [...selfKey, 'aff'], queryFn: () => api.get<string>('/api/user/aff') });
}
