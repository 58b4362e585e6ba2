import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import { type createUserRequestSchema, LogType, type manageUserRequestSchema, Role, type updateUserRequestSchema } from '@switchboard/contracts';
import type { z } from 'zod';
import type { CurrentUser } from '../../../domain/auth/current-user.ts';
import type { SessionService } from '../../../domain/auth/session-service.ts';
import type { UserRow } from '../../../core/db/schema.ts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { hashPassword } from '../../../core/platform/password-hasher.ts';
import { assertValidDisplayName, assertValidGroup, assertValidPassword, assertValidUsername, namePatch } from './account-fields.ts';
import { describeQuota } from '../../../domain/billing/quota-text.ts';
import { applyManageAction, assertMayCreateRole, assertOutranks, type RoleAndStatus } from './role-rules.ts';
import type { UserCreation } from './user-creation.ts';
import type { UserPatch, UserRepository } from './user.repository.ts';
import { userMessages } from './user.messages.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

/** Quota adjustments beyond this are typing mistakes, and would lose precision in a double. */
const maxQuotaMagnitude = 1e15;

export interface UserAdminDependencies {
  readonly users: UserRepository;
  readonly creation: UserCreation;
  readonly sessions: SessionService;
  readonly options: OptionStore;
  readonly logWriter: LogWriter;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  readonly balanceChanges: BalanceChanges;
}

/** User management by administrators, with the role rules applied on every path. */
export class UserAdminService {
  private readonly users: UserRepository;
  private readonly creation: UserCreation;
  private readonly sessions: SessionService;
  private readonly options: OptionStore;
  private readonly logWriter: LogWriter;
  private readonly bus: ChangeBus;
  private readonly clock: Clock;

  private readonly balanceChanges: BalanceChanges;

  constructor(dependencies: UserAdminDependencies) {
    this.balanceChanges = dependencies.balanceChanges;
    this.users = dependencies.users;
    this.creation = dependencies.creation;
    this.sessions = dependencies.sessions;
    this.options = dependencies.options;
    this.logWriter = dependencies.logWriter;
    this.bus = dependencies.bus;
    this.clock = dependencies.clock;
  }

  private async target(id: number, options: { includeDeleted?: boolean } = {}): Promise<UserRow> {
    const user = await this.users.findById(id, options);
    if (!user) throw new AppError(userMessages.notFound);
    return user;
  }

  private async publish(userId: number): Promise<void> {
    await this.bus.publish(changeTopics.users, String(userId));
  }

  /** Deregistered users are listed too (the console tags them). */
  list(offset: number, limit: number): Promise<UserRow[]> {
    return this.users.list(offset, limit);
  }

  count(): Promise<number> {
    return this.users.count();
  }

  countSearch(keyword: string, group: string): Promise<number> {
    return this.users.countSearch(keyword.trim(), group.trim());
  }

  search(keyword: string, group: string, offset: number, limit: number): Promise<UserRow[]> {
    return this.users.search(keyword.trim(), group.trim(), offset, limit);
  }

  async get(actor: CurrentUser, id: number): Promise<UserRow> {
    const user = await this.target(id, { includeDeleted: true });
    assertOutranks(actor.role, user.role, userMessages.noPermissionRead);
    return user;
  }

  async create(actor: CurrentUser, input: z.infer<typeof createUserRequestSchema>): Promise<void> {
    const username = input.username.trim();
    const role = input.role ?? Role.common;
    assertMayCreateRole(actor.role, role);
    if (role !== Role.common && role !== Role.admin) throw new AppError(userMessages.noPermissionCreate);
    assertValidUsername(username);
    assertValidPassword(input.password);
    assertValidDisplayName(input.display_name.trim());
    if (await this.users.usernameExists(username)) throw new AppError(userMessages.usernameTaken);
    await this.creation.create({ username, password: input.password, displayName: input.display_name.trim(), role });
  }

  /**
   * Username, display name, group, remark, password and a quota adjustment. The quota moves by a
   * delta in one statement (sent as `quota_delta`, or derived from a new `quota`), so spending that
   * happens meanwhile is never overwritten; each adjustment writes a manage log row.
   */
  async update(actor: CurrentUser, input: z.infer<typeof updateUserRequestSchema>): Promise<void> {
    const user = await this.target(input.id);
    assertOutranks(actor.role, user.role, userMessages.noPermissionUpdate);
    const patch: UserPatch = await namePatch(user, input, this.users);
    if (input.group !== undefined && input.group.trim() !== user.group) {
      assertValidGroup(input.group.trim());
      patch.group = input.group.trim();
    }
    if (input.remark !== undefined) {
      if (input.remark.length > 255) throw new AppError(userMessages.remarkTooLong);
      patch.remark = input.remark;
    }
    if (input.password) {
      assertValidPassword(input.password);
      patch.password = await hashPassword(input.password);
    }
    const delta = input.quota_delta ?? (input.quota === undefined ? 0 : input.quota - Number(user.quota));
    if (Math.abs(delta) > maxQuotaMagnitude) throw new AppError(userMessages.quotaOutOfRange);

    await this.users.transaction(async (users) => {
      await users.update(user.id, patch);
      if (delta !== 0) await users.addQuota(user.id, delta);
    });
    if (patch.password) await this.sessions.endAllForUser(user.id);
    this.balanceChanges.changed('user', user.id, delta);
    if (delta !== 0) {
      const verb = delta > 0 ? '增加' : '减少';
      await this.logWriter.record({
        user_id: user.id,
        username: patch.username ?? user.username,
        type: LogType.manage,
        quota: delta,
        ...keyedLogContent(
          `管理员（${actor.username}，ID ${actor.id}）为用户${verb}额度 ${describeQuota(this.options, Math.abs(delta))}`,
          delta > 0 ? 'log.admin_add_quota' : 'log.admin_subtract_quota',
          { admin: actor.username, admin_id: actor.id, quota: Math.abs(delta) },
        ),
      });
    }
    await this.publish(user.id);
  }

  /** Promote, demote, disable, enable or delete (deregister); answers the new role and status. */
  async manage(actor: CurrentUser, input: z.infer<typeof manageUserRequestSchema>): Promise<RoleAndStatus> {
    const user = await this.target(input.id);
    const next = applyManageAction(actor.role, { role: user.role, status: user.status }, input.action);
    if (input.action === 'delete') {
      await this.users.markDeleted(user.id, new Date(this.clock.now()));
    } else {
      await this.users.update(user.id, { role: next.role, status: next.status });
    }
    // A banned or deleted user is logged out everywhere; a role change is read fresh on each request.
    if (input.action === 'delete' || input.action === 'disable') await this.sessions.endAllForUser(user.id);
    await this.publish(user.id);
    return next;
  }

  async delete(actor: CurrentUser, id: number): Promise<void> {
    const user = await this.target(id);
    assertOutranks(actor.role, user.role, userMessages.noPermissionDelete);
    await this.manage(actor, { id, action: 'delete' });
  }
}
