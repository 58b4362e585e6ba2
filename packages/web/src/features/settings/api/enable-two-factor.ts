import { api } from '../../../lib/api-client.ts';

/** POST /api/user/2fa/enable: confirms the setup with a code from the app. */
export function enableTwoFactor(code: string): Promise<unknown> {
  return api.post('/api/user/2fa/enable', { code });
}
