import { api } from '../../../lib/api-client.ts';

/** PUT /api/user/self with the new password and the current one (new-api's original_password, empty when the account has none). */
export function changeOwnPassword(password: string, originalPassword: string): Promise<unknown> {
  return api.put('/api/user/self', { password, original_password: originalPassword });
}
