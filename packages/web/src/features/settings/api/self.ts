import { useQuery } from '@tanstack/react-query';
import type { UserView } from '@switchboard/contracts';
import { api, requestEnvelope } from '../../../lib/api-client.ts';

export const selfKey = ['self'] as const;

/** GET /api/user/self */
export function useSelf() {
  return useQuery({ queryKey: selfKey, queryFn: () => api.get<UserView>('/api/user/self'), staleTime: 0 });
}

/** GET /api/user/models: the model names this user may call. */
export function useSelfModels() {
  return useQuery({ queryKey: [...selfKey, 'models'], queryFn: () => api.get<string[]>('/api/user/models') });
}

/** GET /api/user/aff: the user's invite code (created on first call). */
export function useAffiliateCode() {
  return useQuery({ queryKey: [...selfKey, 'aff'], queryFn: () => api.get<string>('/api/user/aff') });
}

/** POST /api/user/aff_transfer: moves pending invitation earnings to the balance; the message says how much. */
export async function transferAffiliateQuota(quota: number): Promise<string> {
  return (await requestEnvelope<unknown>('POST', '/api/user/aff_transfer', { body: { quota } })).message;
}

/** GET /api/user/token: a new system access token (the old one stops working). */
export function regenerateAccessToken(): Promise<string> {
  return api.get<string>('/api/user/token');
}

/** PUT /api/user/self with only the password. */
export function changeOwnPassword(password: string): Promise<unknown> {
  return api.put('/api/user/self', { password });
}

/** DELETE /api/user/self */
export function deleteOwnAccount(): Promise<unknown> {
  return api.delete('/api/user/self');
}
