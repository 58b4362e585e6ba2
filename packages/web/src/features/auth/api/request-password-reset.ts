import { api } from '../../../lib/api-client.ts';

/** GET /api/reset_password?email=&turnstile=: e-mails a reset link to /user/reset. */
export function requestPasswordReset(email: string, turnstile: string): Promise<unknown> {
  return api.get('/api/reset_password', { email, turnstile: turnstile || undefined });
}
