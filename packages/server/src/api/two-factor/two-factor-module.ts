import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import type { Envelope, TwoFactorChallenge } from '@switchboard/contracts';
import { ok } from '../../http/envelope.ts';
import type { AccountServices } from '../user/account-services.ts';
import { localize } from '../user/localize.ts';
import type { UserRow } from '../user/user.repository.ts';
import { toLoginView } from '../user/user-view.ts';
import { TokenRepository } from '../token/token.repository.ts';
import { LoginChallenges } from './login-challenge.ts';
import { RecentVerification } from './recent-verification.ts';
import { TwoFactorRepository } from './two-factor.repository.ts';
import { TwoFactorService } from './two-factor.service.ts';
import { twoFactorMessages } from './two-factor.messages.ts';

/**
 * The last step of every login (password, OAuth, WeChat, Telegram): starts the session, or, when
 * the user has a second factor, answers the challenge instead and starts nothing.
 */
export type CompleteLogin = (request: FastifyRequest, reply: FastifyReply, user: UserRow) => Promise<Envelope<unknown>>;

/** The second factor's parts, built once by the accounts composition. */
export interface TwoFactorModule {
  service: TwoFactorService;
  challenges: LoginChallenges;
  verification: RecentVerification;
  /** The callers' tokens, for revealing a key after re-verification. */
  tokens: TokenRepository;
  completeLogin: CompleteLogin;
}

export function createTwoFactorModule(services: AccountServices, context: AppContext): TwoFactorModule {
  const repository = new TwoFactorRepository(context.database.db);
  const { users, options, loginLimiter, logWriter, clock, store, sessions } = services;
  const service = new TwoFactorService({ repository, users, options, limiter: loginLimiter, logWriter, clock });
  const challenges = new LoginChallenges(store, clock);
  const verification = new RecentVerification(store, sessions, (userId) => service.isEnabled(userId));
  return {
    service,
    challenges,
    verification,
    tokens: new TokenRepository(context.database.db, context.database.dialect),
    async completeLogin(request, reply, user) {
      if (await service.isEnabled(user.id)) {
        const challenge: TwoFactorChallenge = await challenges.issue(reply, user.id);
        return ok(challenge, localize(request, twoFactorMessages.loginRequires2fa));
      }
      await sessions.start(reply, user.id, request.ip);
      return ok(toLoginView(user));
    },
  };
}
