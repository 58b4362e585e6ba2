import { type affTransferRequestSchema, LogType, Role, type updateSelfRequestSchema, type UsableGroup } from '@switchboard/contracts';
import type { z } from 'zod';
import { AppError } from '../../../core/http/app-error.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { hashPassword, verifyPassword } from '../../../core/platform/password-hasher.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import { assertValidPassword, namePatch } from './account-fields.ts';
import type { AccountServices } from './account-services.ts';
import { describeQuota, displayQuota } from '../../../domain/billing/quota-text.ts';
import { usableGroups } from '../../../domain/groups/usable-groups.ts';
import { readPriceTables } from '../../../domain/billing/price-tables.ts';
import { resolveGroupRatio } from '../../../domain/billing/pricing.ts';
import type { UserPatch, UserRow } from './user.repository.ts';
import { userMessages } from './user.messages.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

const accessTokenLength = 32;
/** What new-api shows as the ratio of the `auto` group, whose real ratio is that of the group picked per request. */
const autoRatio = '自动';

/** What a logged-in user does to their own account (the personal settings tab). */
export class SelfService {
  private readonly services: AccountServices;

  constructor(services: AccountServices) {
    this.services = services;
  }

  async get(userId: number): Promise<UserRow> {
    const user = await this.services.users.findById(userId);
    if (!user) throw new AppError(userMessages.notFound);
    return user;
  }

  private async publish(userId: number): Promise<void> {
    await this.services.bus.publish(changeTopics.users, String(userId));
  }

  /**
   * Username, display name and password; a new password ends the user's other sessions. Changing a
   * password takes the current one (new-api's original_password): a stolen session alone cannot take
   * the account. An account without one (created by a third-party login) sets its first freely.
   */
  async update(userId: number, currentSessionId: string | undefined, input: z.infer<typeof updateSelfRequestSchema>): Promise<void> {
    const user = await this.get(userId);
    const patch: UserPatch = await namePatch(user, input, this.services.users);
    if (input.password) {
      assertValidPassword(input.password);
      if (user.password) {
        if (!input.original_password) throw new AppError(userMessages.originalPasswordRequired);
        if (!(await verifyPassword(input.original_password, user.password))) throw new AppError(userMessages.originalPasswordWrong);
      }
      patch.password = await hashPassword(input.password);
    }
    await this.services.users.update(userId, patch);
    if (patch.password) await this.services.users.deleteOtherSessions(userId, currentSessionId);
    await this.publish(userId);
  }

  /** Deregisters the account (kept, marked deleted, like an administrator's "delete"). */
  async deregister(userId: number): Promise<void> {
    const user = await this.get(userId);
    if (user.role === Role.root) throw new AppError(userMessages.rootCannotDeleteSelf);
    await this.services.users.markDeleted(userId, new Date(this.services.clock.now()));
    await this.services.sessions.endAllForUser(userId);
    await this.publish(userId);
  }

  /** A fresh system access token (the previous one stops working). */
  async regenerateAccessToken(userId: number): Promise<string> {
    const token = randomAlphanumeric(accessTokenLength);
    await this.services.users.update(userId, { access_token: token });
    return token;
  }

  /** The user's invitation code, created on first request for accounts imported without one. */
  async affCode(userId: number): Promise<string> {
    const user = await this.get(userId);
    if (user.aff_code) return user.aff_code;
    const code = randomAlphanumeric(4);
    await this.services.users.update(userId, { aff_code: code });
    return code;
  }

  /** Moves pending invitation earnings into the balance, atomically; at least one QuotaPerUnit. */
  async transferAffQuota(user: { id: number; username: string }, input: z.infer<typeof affTransferRequestSchema>): Promise<void> {
    const { options, logWriter } = this.services;
    const minimum = options.getNumber('QuotaPerUnit');
    if (input.quota < minimum) throw new AppError(userMessages.affTransferMinimum, { params: { amount: displayQuota(options, minimum) } });
    const moved = await this.services.users.transferAffQuota(user.id, input.quota);
    if (!moved) throw new AppError(userMessages.affQuotaInsufficient);
    this.services.balanceChanges.changed('user', user.id, input.quota);
    await logWriter.record({
      user_id: user.id,
      username: user.username,
      type: LogType.system,
      ...keyedLogContent(`邀请奖励划转到余额 ${describeQuota(options, input.quota)}`, 'log.affiliate_transfer', { quota: input.quota }),
      quota: input.quota,
    });
    await this.publish(user.id);
  }

  /** The groups the user may use with their labels and the ratio the user pays in each (new-api's GetUserGroups). */
  async groups(userId: number): Promise<Record<string, UsableGroup>> {
    const user = await this.get(userId);
    const tables = readPriceTables(this.services.options);
    const entries = Object.entries(usableGroups(this.services.options, user.group)).map(([group, desc]) => {
      const ratio = group === 'auto' ? autoRatio : resolveGroupRatio(tables, user.group || 'default', group).groupRatio;
      return [group, { ratio, desc }] as const;
    });
    return Object.fromEntries(entries);
  }

  /** Models enabled in any group the user may use. */
  async models(userId: number): Promise<string[]> {
    const user = await this.get(userId);
    return this.services.users.modelsOfGroups(Object.keys(usableGroups(this.services.options, user.group)));
  }
}
