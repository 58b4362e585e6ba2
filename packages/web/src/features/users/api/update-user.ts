import { api } from '../../../lib/api-client.ts';

export interface UpdateUserInput {
  id: number;
  username: string;
  display_name: string;
  /** Sent only when a new password was typed. */
  password?: string;
  group?: string;
  remark?: string;
  /** Signed amount added to the balance (atomic on the server, so concurrent spending is kept). */
  quota_delta?: number;
}

/** PUT /api/user/ (an administrator editing someone). */
export function updateUser(input: UpdateUserInput): Promise<unknown> {
  return api.put('/api/user/', input);
}
