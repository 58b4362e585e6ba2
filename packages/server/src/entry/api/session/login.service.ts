import { loginRequestSchema, UserStatus } from '@switchboard/contracts';
import { AppError } from '../../../core/http/app-error.ts';
import { commonMessages } from '../../../core/messages/catalogue.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../../core/platform/password-hasher.ts';
import type { AccountServices } from '../user/account-services.ts';
import { parseInput } from '../../../core/http/listing/parse-input.ts';
import type { UserRow } from '../user/user.repository.ts';
import { sessionMessages } from './session.messages.ts';

let decoyHash: Promise<string> | undefined;

/** Verifying against a decoy when the user does not exist keeps the answer time the same. */
function decoy(): Promise<string> {
  decoyHash ??= hashPassword('decoy-password-never-used');
  return decoyHash;
}

/** Where a login comes from: the client address and the Turnstile token it sent (`?turnstile=`, '' when none). */
export interface LoginClient {
  ip: string;
  turnstile: string;
  /** Past the address's critical request limit (limits/ip-rate-limits.ts): the human check is asked for first. */
  addressOverLimit?: boolean;
}

/**
 * What an address past its failure limit must do to try a password (one guesser behind a shared proxy
 * must not lock out everyone behind it). With Turnstile configured: pass the human check, even while
 * it is off for ordinary logins; the console shows the widget on `turnstile_required`. When it is on
 * for every login, the route has already checked this request's token (a token verifies only once).
 * Without Turnstile: wait a delay that grows with the count.
 */
function addressStepUp(services: AccountServices, client: LoginClient) {
  return async (excess: number): Promise<void> => {
    if (!services.turnstile.configured()) return services.loginLimiter.pause(excess);
    await humanCheck(services, client);
  };
}

/** The human check of a step-up; already done when Turnstile is on for every login (a token verifies once). */
async function humanCheck(services: AccountServices, client: LoginClient): Promise<void> {
  const { turnstile } = services;
  if (turnstile.requiredForAll()) return;
  if (!client.turnstile) throw new AppError(sessionMessages.humanCheckRequired, { code: 'turnstile_required' });
  await turnstile.assertHuman(client.turnstile, client.ip);
}

/**
 * Password login by username or email. Each attempt is counted before the password is checked
 * (http/rate-limit.ts): a username past its limit is refused (429), an address past its limit is
 * stepped up (above); banned and deregistered users cannot log in; a bcrypt hash from an imported
 * new-api or one-api database is upgraded to argon2id on the first successful login.
 */
export async function verifyPasswordLogin(services: AccountServices, body: unknown, client: LoginClient): Promise<UserRow> {
  const { options, clock } = services;
  if (!options.getBoolean('PasswordLoginEnabled')) throw new AppError(sessionMessages.passwordLoginDisabled);
  const parsed = parseInput(loginRequestSchema, body);
  const username = parsed.username.trim();
  const { password } = parsed;
  if (!username || !password) throw new AppError(sessionMessages.credentialsRequired);

  // An address past the critical request limit passes the human check, instead of being refused with everyone behind it.
  const checkedHuman = client.addressOverLimit === true;
  if (checkedHuman) await humanCheck(services, client);
  const attempt = await services.loginLimiter.reserve(client.ip, username, checkedHuman ? async () => undefined : addressStepUp(services, client));
  const user = await services.users.findLiveByLogin(username);
  const matches = await verifyPassword(password, user?.password || (await decoy()));
  if (!user || !matches) throw new AppError(sessionMessages.wrongCredentials);
  await attempt.succeeded();
  if (user.status !== UserStatus.enabled) throw new AppError(commonMessages.userBanned);

  const patch: { last_login_at: number; password?: string } = { last_login_at: clock.unixSeconds() };
  if (needsRehash(user.password)) patch.password = await hashPassword(password);
  await services.users.update(user.id, patch);
  return { ...user, ...patch };
}
