import { api } from '../../../lib/api-client.ts';

/** GET /api/verification?email=&turnstile=: e-mails a registration code. */
export function sendVerificationCode(email: string, turnstile: string): Promise<unknown> {
  return api.get('/api/verification', { email, turnstile: turnstile || undefined });
}
