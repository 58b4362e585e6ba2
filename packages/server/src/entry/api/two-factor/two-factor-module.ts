import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import { type Envelope, LogType, Role, type TwoFactorChallenge } from '@switchboard/contracts';
import { ok } from '../../../core/http/envelope.ts';
import type { AccountServices } from '../user/account-services.ts';
import { localize } from '../../../core/http/localize.ts';
import type { UserRow } from '../user/user.repository.ts';
import { toLoginView } from '../user/user-view.ts';
import { TokenRepository } from '../token/token.repository.ts';
import { LoginChallenges } from './login-challenge.ts';
import { RecentVerification } from './recent-verification.ts';
import { SecondFactorLock } from './second-factor-lock.ts';
import { secondFactorLockedMail } from './second-factor-mail.ts';
import { TwoFactorRepository } from './two-factor.repository.ts';
import { TwoFactorService } from './two-factor.service.ts';
import { twoFactorMessages } from './two-factor.messages.ts';
import { keyedLogContent } from '../../../domain/logs/log-content.ts';

/**
 * The last step of every login (password, OAuth, WeChat, Telegram): starts the session, or, when
 * the user has a second factor, answers the challenge instead and starts nothing.
 */
export type CompleteLogin = (request: FastifyRequest, reply: FastifyReply, user: UserRow) => Promise<Envelope<unknown>>;

/** A second factor a user may have set. */
export type SecondFactorMethod = 'totp' | 'passkey';

/** The second factor's parts, built once by the accounts composition. */
export interface TwoFactorModule {
  service: TwoFactorService;
  /** The user's second factors: TOTP and/or passkeys (empty: none). */
  secondFactors: (userId: number) => Promise<SecondFactorMethod[]>;
  challenges: LoginChallenges;
  verification: RecentVerification;
  /** The callers' tokens, for revealing a key after re-verification. */
  tokens: TokenRepository;
  completeLogin: CompleteLogin;
}

/** `hasPasskey` makes a passkey count as a second factor (api/passkey/). */
export function createTwoFactorModule(
  services: AccountServices,
  database: DatabaseHandle,
  hasPasskey: (userId: number) => Promise<boolean> = async () => false,
): TwoFactorModule {
  const repository = new TwoFactorRepository(database.db);
  const { users, options, loginLimiter, logWriter, clock, store, sessions, mailer, logger } = services;
  const lock = new SecondFactorLock(store, async (userId, ip) => {
    const user = await users.findById(userId);
    await logWriter.record({
      user_id: userId,
      username: user?.username ?? '',
      type: LogType.system,
      ...keyedLogContent(`两步验证连续输错，已锁定（来自 ${ip}）`, 'log.two_factor_locked', { ip }),
    });
    if (!user?.email || !options.get('SMTPServer')) return;
    // A mail that cannot go out must not turn the refusal into an error: the lock holds either way.
    await mailer.send({ to: user.email, ...secondFactorLockedMail(options.get('SystemName'), user.username, ip) }).catch((error: unknown) => {
      logger.warn({ err: error, userId }, 'second-factor lock mail could not be sent');
    });
  });
  const service = new TwoFactorService({ repository, users, options, limiter: loginLimiter, lock, logWriter, clock });
  const challenges = new LoginChallenges(store, clock);
  const secondFactors = async (userId: number): Promise<SecondFactorMethod[]> => {
    const [totp, passkey] = await Promise.all([service.isEnabled(userId), hasPasskey(userId)]);
    return [...(totp ? ['totp' as const] : []), ...(passkey ? ['passkey' as const] : [])];
  };
  const verification = new RecentVerification(store, sessions, async (userId) => (await secondFactors(userId)).length > 0);
  return {
    service,
    secondFactors,
    challenges,
    verification,
    tokens: new TokenRepository(database.db, database.dialect),
    async completeLogin(request, reply, user) {
      const methods = await secondFactors(user.id);
      if (methods.length > 0) {
        const challenge: TwoFactorChallenge = { ...(await challenges.issue(reply, user.id)), methods };
        return ok(challenge, localize(request, twoFactorMessages.loginRequires2fa));
      }
      await sessions.start(reply, user.id, request.ip);
      // `TwoFactorRequiredForAdmins`: an administrator without one is logged in and sent to enrol (admin routes refuse meanwhile).
      const mustEnrol = user.role >= Role.admin && options.getBoolean('TwoFactorRequiredForAdmins');
      return ok(mustEnrol ? { ...toLoginView(user), require_second_factor_enrolment: true } : toLoginView(user));
    },
  };
}
