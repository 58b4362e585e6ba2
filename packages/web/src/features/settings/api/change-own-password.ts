import { api } from '../../../lib/api-client.ts';

/** PUT /api/user/self with only the password. */
export function changeOwnPassword(password: string): Promise<unknown> {
  return api.put('/api/user/self', { password });
}
