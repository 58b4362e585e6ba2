import { api } from '../../../lib/api-client.ts';

/** POST /api/user/2fa/disable: with a code from the app or a backup code. */
export function disableTwoFactor(code: string): Promise<unknown> {
  return api.post('/api/user/2fa/disable', { code });
}
