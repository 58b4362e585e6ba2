import { Role, UserStatus } from '@switchboard/contracts';
import type { Clock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import { hashPassword } from '../../core/platform/password-hasher.ts';
import { randomAlphanumeric } from '../../core/platform/random.ts';
import type { RootUserRepository } from './root-user.repository.ts';

const defaultRootPassword = '123456';
const rootQuota = 100_000_000;

/**
 * An empty users table gets the super administrator `root`. Any existing user (an imported new-api
 * database, or a second start) means nothing is created. The insert conflicts on the unique username
 * if two instances race, and the loser simply finds the row there.
 */
export async function ensureRootUser(users: RootUserRepository, options: { initialPassword: string; clock: Clock; logger: Logger }): Promise<void> {
  if (await users.anyUserExists()) return;
  const password = options.initialPassword || defaultRootPassword;
  const now = options.clock.unixSeconds();
  try {
    await users.insertRoot({
      username: 'root',
      password: await hashPassword(password),
      display_name: 'Root User',
      role: Role.root,
      status: UserStatus.enabled,
      email: '',
      github_id: '',
      wechat_id: '',
      telegram_id: '',
      linux_do_id: '',
      access_token: null,
      quota: rootQuota,
      used_quota: 0,
      request_count: 0,
      group: 'default',
      aff_code: randomAlphanumeric(4),
      aff_count: 0,
      aff_quota: 0,
      aff_history: 0,
      inviter_id: 0,
      setting: '',
      remark: '',
      created_at: now,
      last_login_at: 0,
      deleted_at: null,
    });
  } catch (error) {
    if (await users.rootExists()) return;
    throw error;
  }
  if (options.initialPassword) {
    options.logger.info('created super administrator "root" with the password from INITIAL_ROOT_PASSWORD');
  } else {
    options.logger.warn('created super administrator "root" with the default password 123456: change it at once');
  }
}
