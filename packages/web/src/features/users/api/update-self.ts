import { api } from '../../../lib/api-client.ts';
import type { UpdateUserInput } from './update-user.ts';

/** PUT /api/user/self (anyone editing themself: username, display name, password). */
export function updateSelf(input: Pick<UpdateUserInput, 'username' | 'display_name' | 'password'>): Promise<unknown> {
  return api.put('/api/user/self', input);
}
