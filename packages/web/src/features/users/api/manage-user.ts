import type { ManageAction } from '@switchboard/contracts';
import { api } from '../../../lib/api-client.ts';

export interface RoleAndStatus {
  role: number;
  status: number;
}

/** POST /api/user/manage: promote, demote, disable, enable or delete (deregister); data is the new role and status. */
export function manageUser(id: number, action: ManageAction): Promise<RoleAndStatus> {
  return api.post<RoleAndStatus>('/api/user/manage', { id, action });
}
