import { api } from '../../../lib/api-client.ts';

/** POST /api/verify: re-verification before a sensitive action (good for five minutes). */
export function verifySecondFactor(code: string): Promise<unknown> {
  return api.post('/api/verify', { method: '2fa', code });
}
