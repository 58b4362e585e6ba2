import { api } from '../../../lib/api-client.ts';

/** GET /api/oauth/email/bind?email=&code= */
export function bindEmail(email: string, code: string): Promise<unknown> {
  return api.get('/api/oauth/email/bind', { email, code });
}
