import { api } from '../../../lib/api-client.ts';
import type { UpdateUserInput } from './update-user.ts';

/** PUT /api/user/self (anyone editing themself: username, display name, password with the current one). */
export function updateSelf(input: Pick<UpdateUserInput, 'username' | 'display_name' | 'password'> & { original_password?: string }): Promise<unknown> {
  return api.put('/api/user/self', input);
}
