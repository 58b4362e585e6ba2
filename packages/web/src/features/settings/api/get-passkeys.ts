import { useQuery } from '@tanstack/react-query';
import type { PasskeyStatus } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';
import { selfKey } from './get-self.ts';

export const passkeysKey = [...selfKey, 'passkeys'] as const;

/** GET /api/user/passkey: the caller's passkeys. */
export function usePasskeys() {
  return useQuery({ queryKey: passkeysKey, queryFn: () => api.get<PasskeyStatus>('/api/user/passkey'), staleTime: 0 });
}
