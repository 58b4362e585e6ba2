import type { UpdateUserRequest } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** PUT /api/user/ (an administrator editing someone): the password only when a new one was typed, the balance as `quota_delta`. */
export function updateUser(input: UpdateUserRequest): Promise<unknown> {
  return api.put('/api/user/', input);
}
