import { describe, expect, it } from 'vitest';
import { type ManageAction, Role, UserStatus } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import { applyManageAction, assertMayCreateRole, assertOutranks } from './role-rules.ts';
import { userMessages } from './user.messages.ts';

const enabled = (role: number) => ({ role, status: UserStatus.enabled });

function refusal(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error.localized.zh;
    throw error;
  }
}

describe('role rules', () => {
  it('lets only a higher role (or root) act on a user', () => {
    expect(refusal(() => assertOutranks(Role.admin, Role.common, userMessages.noPermissionRead))).toBeUndefined();
    expect(refusal(() => assertOutranks(Role.admin, Role.admin, userMessages.noPermissionRead))).toBe(userMessages.noPermissionRead.zh);
    expect(refusal(() => assertOutranks(Role.admin, Role.root, userMessages.noPermissionRead))).toBe(userMessages.noPermissionRead.zh);
    expect(refusal(() => assertOutranks(Role.root, Role.root, userMessages.noPermissionRead))).toBeUndefined();
  });

  it('refuses creating an equal or higher role', () => {
    expect(refusal(() => assertMayCreateRole(Role.admin, Role.common))).toBeUndefined();
    expect(refusal(() => assertMayCreateRole(Role.admin, Role.admin))).toBe(userMessages.noPermissionCreate.zh);
    expect(refusal(() => assertMayCreateRole(Role.root, Role.admin))).toBeUndefined();
    expect(refusal(() => assertMayCreateRole(Role.root, Role.root))).toBe(userMessages.noPermissionCreate.zh);
  });

  const cases: Array<[string, number, { role: number; status: number }, ManageAction, { role: number; status: number } | string]> = [
    ['admin disables a user', Role.admin, enabled(Role.common), 'disable', { role: Role.common, status: UserStatus.disabled }],
    ['admin enables a user', Role.admin, { role: Role.common, status: UserStatus.disabled }, 'enable', enabled(Role.common)],
    ['status 3 cannot be enabled', Role.root, { role: Role.common, status: UserStatus.locked }, 'enable', userMessages.cannotEnableLocked.zh],
    ['admin cannot promote', Role.admin, enabled(Role.common), 'promote', userMessages.adminCannotPromote.zh],
    ['root promotes', Role.root, enabled(Role.common), 'promote', enabled(Role.admin)],
    ['root cannot promote an admin again', Role.root, enabled(Role.admin), 'promote', userMessages.alreadyAdmin.zh],
    ['root demotes an admin', Role.root, enabled(Role.admin), 'demote', enabled(Role.common)],
    ['an ordinary user cannot be demoted', Role.root, enabled(Role.common), 'demote', userMessages.alreadyCommon.zh],
    ['admin cannot touch another admin', Role.admin, enabled(Role.admin), 'disable', userMessages.noPermissionUpdate.zh],
    ['admin cannot touch root', Role.admin, enabled(Role.root), 'delete', userMessages.noPermissionUpdate.zh],
    ['root cannot be disabled', Role.root, enabled(Role.root), 'disable', userMessages.cannotDisableRoot.zh],
    ['root cannot be demoted', Role.root, enabled(Role.root), 'demote', userMessages.cannotDemoteRoot.zh],
    ['root cannot be deleted', Role.root, enabled(Role.root), 'delete', userMessages.cannotDeleteRoot.zh],
    ['delete keeps role and status', Role.admin, enabled(Role.common), 'delete', enabled(Role.common)],
  ];

  it.each(cases)('%s', (_name, actorRole, target, action, expected) => {
    if (typeof expected === 'string') expect(refusal(() => applyManageAction(actorRole, target, action))).toBe(expected);
    else expect(applyManageAction(actorRole, target, action)).toEqual(expected);
  });
});
