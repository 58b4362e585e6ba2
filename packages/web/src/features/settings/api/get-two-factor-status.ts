import { useQuery } from '@tanstack/react-query';
import type { TwoFactorStatus } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';
import { selfKey } from './get-self.ts';

export const twoFactorStatusKey = [...selfKey, 'two-factor'] as const;

/** GET /api/user/2fa/status */
export function useTwoFactorStatus() {
  return useQuery({ queryKey: twoFactorStatusKey, queryFn: () => api.get<TwoFactorStatus>('/api/user/2fa/status'), staleTime: 0 });
}
