import type { ManageAction, UserView } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

/** POST /api/user/manage: promote, demote, disable, enable or delete (deregister); data is the new role and status. */
export function manageUser(id: number, action: ManageAction): Promise<Pick<UserView, 'role' | 'status'>> {
  return api.post<Pick<UserView, 'role' | 'status'>>('/api/user/manage', { id, action });
}
