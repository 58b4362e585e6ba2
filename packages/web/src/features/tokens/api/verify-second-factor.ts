import { api } from '../../../lib/api-client.ts';

/** POST /api/verify: re-verification with a second-factor code, good for five minutes of key reveals. */
export function verifySecondFactor(code: string): Promise<unknown> {
  return api.post('/api/verify', { method: '2fa', code });
}
