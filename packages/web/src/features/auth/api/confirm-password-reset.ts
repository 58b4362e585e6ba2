import { api } from '../../../lib/api-client.ts';

/** POST /api/user/reset: data is the newly generated password. */
export function confirmPasswordReset(email: string, token: string): Promise<string> {
  return api.post<string>('/api/user/reset', { email, token });
}
