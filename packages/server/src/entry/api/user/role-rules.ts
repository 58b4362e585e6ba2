import { type ManageAction, Role, UserStatus } from '@switchboard/contracts';
import { assertOutranks } from '../../../domain/auth/outranks.ts';
import { AppError } from '../../../core/http/app-error.ts';
import { userMessages } from './user.messages.ts';

export { assertOutranks };

/**
 * The role rules (who may act on whom), enforced on the server for every path. Pure functions, so
 * each rule has a unit test and the services only call them.
 */

/** Nobody creates a user of an equal or higher role (root included: there is one root). */
export function assertMayCreateRole(actorRole: number, newRole: number): void {
  if (newRole >= actorRole) throw new AppError(userMessages.noPermissionCreate);
}

export interface RoleAndStatus {
  role: number;
  status: number;
}

/**
 * The role and status a manage action leads to. An administrator cannot promote to administrator;
 * root cannot be disabled, demoted or deleted; status 3 cannot be enabled from the console.
 */
export function applyManageAction(actorRole: number, target: RoleAndStatus, action: ManageAction): RoleAndStatus {
  assertOutranks(actorRole, target.role, userMessages.noPermissionUpdate);
  switch (action) {
    case 'disable':
      if (target.role === Role.root) throw new AppError(userMessages.cannotDisableRoot);
      return { ...target, status: UserStatus.disabled };
    case 'enable':
      if (target.status === UserStatus.locked) throw new AppError(userMessages.cannotEnableLocked);
      return { ...target, status: UserStatus.enabled };
    case 'delete':
      if (target.role === Role.root) throw new AppError(userMessages.cannotDeleteRoot);
      return target;
    case 'promote':
      if (actorRole !== Role.root) throw new AppError(userMessages.adminCannotPromote);
      if (target.role >= Role.admin) throw new AppError(userMessages.alreadyAdmin);
      return { ...target, role: Role.admin };
    case 'demote':
      if (target.role === Role.root) throw new AppError(userMessages.cannotDemoteRoot);
      if (target.role === Role.common) throw new AppError(userMessages.alreadyCommon);
      return { ...target, role: Role.common };
  }
}
