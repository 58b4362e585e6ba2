import { loginRequestSchema, UserStatus } from '@switchboard/contracts';
import { AppError } from '../../http/app-error.ts';
import { commonMessages } from '../../messages/catalogue.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../platform/password-hasher.ts';
import type { AccountServices } from '../user/account-services.ts';
import { parseBody } from '../user/request-input.ts';
import type { UserRow } from '../user/user.repository.ts';
import { sessionMessages } from './session.messages.ts';

let decoyHash: Promise<string> | undefined;

/** Verifying against a decoy when the user does not exist keeps the answer time the same. */
function decoy(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-never-used');
  return decoyHash;
}

/**
 * Password login by username or email. Failures count per address and per username (429 once the
 * limit is reached); banned and deregistered users cannot log in; a bcrypt hash from an imported
 * new-api or one-api database is upgraded to argon2id on the first successful login.
 */
export async function verifyPasswordLogin(services: AccountServices, body: unknown, ip: string): Promise<UserRow> {
  const { options, clock } = services.context;
  if (!options.getBoolean('PasswordLoginEnabled')) throw new AppError(sessionMessages.passwordLoginDisabled);
  const parsed = parseBody(loginRequestSchema, body);
  const username = parsed.username.trim();
  const { password } = parsed;
  if (!username || !password) throw new AppError(sessionMessages.credentialsRequired);

  await services.loginLimiter.assertAllowed(ip, username);
  const user = await services.users.findLiveByLogin(username);
  const matches = await verifyPassword(password, user?.password || (await decoy()));
  if (!user || !matches) {
    await services.loginLimiter.recordFailure(ip, username);
    throw new AppError(sessionMessages.wrongCredentials);
  }
  if (user.status !== UserStatus.enabled) throw new AppError(commonMessages.userBanned);
  await services.loginLimiter.recordSuccess(username);

  const patch: { last_login_at: number; password?: string } = { last_login_at: clock.unixSeconds() };
  if (needsRehash(user.password)) patch.password = await hashPassword(password);
  await services.users.update(user.id, patch);
  return { ...user, ...patch };
}
