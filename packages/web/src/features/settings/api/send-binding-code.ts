import { api } from '../../../lib/api-client.ts';

/** GET /api/verification?email=&turnstile=: e-mails a code for binding. */
export function sendBindingCode(email: string, turnstile: string): Promise<unknown> {
  return api.get('/api/verification', { email, turnstile: turnstile || undefined });
}
