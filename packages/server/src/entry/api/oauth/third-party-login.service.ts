import { UserStatus } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import type { LocalizedMessage } from '../../../core/messages/catalogue.ts';
import { commonMessages } from '../../../core/messages/catalogue.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { registerMessages } from '../register/register.messages.ts';
import type { AccountServices } from '../user/account-services.ts';
import type { UserRow } from '../user/user.repository.ts';
import { userMessages } from '../user/user.messages.ts';
import type { ThirdPartyIdentity } from './identity-providers.ts';

/** How one login provider maps onto the users table. */
export interface ThirdPartyKind {
  column: 'github_id' | 'wechat_id' | 'telegram_id' | 'linux_do_id';
  /** Generated usernames: prefix plus the next id (github_42). */
  usernamePrefix: string;
  /** The NewAccount field that holds the identity. */
  accountField: 'githubId' | 'wechatId' | 'telegramId' | 'linuxDoId';
  alreadyBound: LocalizedMessage;
  /** Unset: an unknown identity may sign up (when registration is on). Set: it is refused with this. */
  notBound?: LocalizedMessage;
}

/**
 * What every third-party login shares: bind the identity to the logged-in user, or log in the user
 * who holds it, or sign up a new user when registration is open. An identity belongs to one account
 * only, deregistered accounts included.
 */
export class ThirdPartyLogin {
  private readonly services: AccountServices;

  constructor(services: AccountServices) {
    this.services = services;
  }

  async bind(userId: number, kind: ThirdPartyKind, identityId: string): Promise<void> {
    const holder = await this.services.users.findByIdentity(kind.column, identityId);
    if (holder && holder.id !== userId) throw new AppError(kind.alreadyBound);
    await this.services.users.update(userId, { [kind.column]: identityId });
    await this.services.bus.publish(changeTopics.users, String(userId));
  }

  async login(kind: ThirdPartyKind, identity: ThirdPartyIdentity, affCode = ''): Promise<UserRow> {
    const holder = await this.services.users.findByIdentity(kind.column, identity.id);
    const user = holder ?? (await this.signUp(kind, identity, affCode));
    if (user.deleted_at !== null) throw new AppError(userMessages.deregistered);
    if (user.status !== UserStatus.enabled) throw new AppError(commonMessages.userBanned);
    await this.services.users.update(user.id, { last_login_at: this.services.clock.unixSeconds() });
    return user;
  }

  private async signUp(kind: ThirdPartyKind, identity: ThirdPartyIdentity, affCode: string): Promise<UserRow> {
    if (kind.notBound) throw new AppError(kind.notBound);
    if (!this.services.options.getBoolean('RegisterEnabled')) throw new AppError(registerMessages.registerDisabled);
    const emailFree = identity.email !== '' && !(await this.services.users.findByIdentity('email', identity.email.toLowerCase()));
    return this.services.creation.create({
      username: await this.services.creation.generatedUsername(kind.usernamePrefix),
      password: '',
      displayName: identity.displayName.slice(0, 20),
      email: emailFree ? identity.email.toLowerCase() : '',
      [kind.accountField]: identity.id,
      inviterId: await this.services.creation.inviterIdForCode(affCode),
    });
  }
}
