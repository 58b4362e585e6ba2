import { LogType, Role, UserStatus } from '@switchboard/contracts';
import type { UserRow } from '../../../core/db/schema.ts';
import type { LogEntry } from '../../../domain/logs/log-row.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { hashPassword } from '../../../core/platform/password-hasher.ts';
import { randomAlphanumeric } from '../../../core/platform/random.ts';
import { describeQuota } from '../../../domain/billing/quota-text.ts';
import type { UserRepository } from './user.repository.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

export interface NewAccount {
  username: string;
  /** Empty for accounts made by a third-party login: they cannot log in with a password. */
  password: string;
  displayName: string;
  email?: string;
  role?: number;
  githubId?: string;
  wechatId?: string;
  telegramId?: string;
  linuxDoId?: string;
  inviterId?: number;
}

const affCodeLength = 4;

/**
 * Creates accounts the way every entry point must (registration, third-party sign-up, an admin's
 * "add user"): the new-user quota, a unique invitation code, and the invitation rewards, all in one
 * transaction; the log rows and the change notice follow the commit.
 */
export class UserCreation {
  private readonly users: UserRepository;
  private readonly options: OptionStore;
  private readonly logWriter: LogWriter;
  private readonly clock: Clock;
  private readonly bus: ChangeBus;

  constructor(dependencies: { users: UserRepository; options: OptionStore; logWriter: LogWriter; clock: Clock; bus: ChangeBus }) {
    this.users = dependencies.users;
    this.options = dependencies.options;
    this.logWriter = dependencies.logWriter;
    this.clock = dependencies.clock;
    this.bus = dependencies.bus;
  }

  /** The live inviter owning an invitation code, or 0. */
  async inviterIdForCode(affCode: string): Promise<number> {
    const code = affCode.trim();
    if (!code) return 0;
    const inviter = await this.users.findByIdentity('aff_code', code);
    return inviter && inviter.deleted_at === null ? inviter.id : 0;
  }

  /** A free generated username such as github_42 (new-api's scheme: prefix plus the next id). */
  async generatedUsername(prefix: string): Promise<string> {
    const next = (await this.users.maxId()) + 1;
    const candidate = `${prefix}${next}`;
    return (await this.users.usernameExists(candidate)) ? `${prefix}${randomAlphanumeric(4).toLowerCase()}` : candidate;
  }

  private async unusedAffCode(users: UserRepository): Promise<string> {
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const code = randomAlphanumeric(affCodeLength);
      if (!(await users.affCodeTaken(code))) return code;
    }
    return randomAlphanumeric(affCodeLength * 2);
  }

  async create(account: NewAccount): Promise<UserRow> {
    const quotaForNewUser = this.options.getNumber('QuotaForNewUser');
    const quotaForInvitee = this.options.getNumber('QuotaForInvitee');
    const quotaForInviter = this.options.getNumber('QuotaForInviter');
    const inviterId = account.inviterId ?? 0;
    const password = account.password ? await hashPassword(account.password) : '';
    const id = await this.users.transaction(async (users) => {
      const newId = await users.insert({
        username: account.username,
        password,
        display_name: account.displayName || account.username,
        role: account.role ?? Role.common,
        status: UserStatus.enabled,
        email: account.email ?? '',
        github_id: account.githubId ?? '',
        wechat_id: account.wechatId ?? '',
        telegram_id: account.telegramId ?? '',
        linux_do_id: account.linuxDoId ?? '',
        access_token: null,
        quota: quotaForNewUser + (inviterId ? quotaForInvitee : 0),
        used_quota: 0,
        request_count: 0,
        group: 'default',
        aff_code: await this.unusedAffCode(users),
        aff_count: 0,
        aff_quota: 0,
        aff_history: 0,
        inviter_id: inviterId,
        setting: '',
        remark: '',
        created_at: this.clock.unixSeconds(),
        last_login_at: 0,
        deleted_at: null,
      });
      if (inviterId) await users.creditInviter(inviterId, quotaForInviter);
      return newId;
    });

    const logs: LogEntry[] = [];
    if (quotaForNewUser > 0)
      logs.push({
        user_id: id,
        username: account.username,
        type: LogType.system,
        ...keyedLogContent(`新用户注册赠送 ${describeQuota(this.options, quotaForNewUser)}`, 'log.register_gift', { quota: quotaForNewUser }),
        quota: quotaForNewUser,
      });
    if (inviterId && quotaForInvitee > 0)
      logs.push({
        user_id: id,
        username: account.username,
        type: LogType.system,
        ...keyedLogContent(`使用邀请码赠送 ${describeQuota(this.options, quotaForInvitee)}`, 'log.invitee_gift', { quota: quotaForInvitee }),
        quota: quotaForInvitee,
      });
    if (inviterId && quotaForInviter > 0)
      logs.push({
        user_id: inviterId,
        type: LogType.system,
        ...keyedLogContent(`邀请用户赠送 ${describeQuota(this.options, quotaForInviter)}`, 'log.inviter_gift', { quota: quotaForInviter }),
        quota: quotaForInviter,
      });
    await this.logWriter.recordMany(logs);
    await this.bus.publish(changeTopics.users, String(id));
    if (inviterId) await this.bus.publish(changeTopics.users, String(inviterId));
    const created = await this.users.findById(id);
    if (!created) throw new Error(`user ${id} vanished right after creation`);
    return created;
  }
}
