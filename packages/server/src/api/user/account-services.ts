import type { AppContext } from '../../app-context.ts';
import { FailureLimiter, WindowLimiter } from '../../http/rate-limit.ts';
import { createMemoryExpiringStore, createRedisExpiringStore, type ExpiringStore } from '../../platform/expiring-store.ts';
import { Mailer } from '../../platform/mailer.ts';
import { TurnstileVerifier } from '../verification/turnstile.ts';
import { VerificationCodes } from '../verification/verification-codes.ts';
import { UserCreation } from './user-creation.ts';
import { UserRepository } from './user.repository.ts';

/** What the account routes share, built once per app by `registerAccountRoutes`. */
export interface AccountServices {
  readonly context: AppContext;
  readonly users: UserRepository;
  readonly creation: UserCreation;
  /** Codes, OAuth states, cooldowns and failure counts: Redis-backed when REDIS_CONN_STRING is set. */
  readonly store: ExpiringStore;
  readonly mailer: Mailer;
  readonly turnstile: TurnstileVerifier;
  readonly codes: VerificationCodes;
  readonly loginLimiter: FailureLimiter;
  /** Mails (codes, reset links) one client address may trigger: stops mail bombing many addresses. */
  readonly mailLimiter: WindowLimiter;
}

export function createAccountServices(context: AppContext): AccountServices {
  const users = new UserRepository(context.database.db, context.database.dialect);
  const store = context.redis ? createRedisExpiringStore(context.redis) : createMemoryExpiringStore(context.clock);
  return {
    context,
    users,
    creation: new UserCreation({ users, options: context.options, logWriter: context.logWriter, clock: context.clock, bus: context.bus }),
    store,
    mailer: new Mailer(context.options),
    turnstile: new TurnstileVerifier(context.options, context.config.outsideEndpoints.turnstileVerifyUrl),
    codes: new VerificationCodes(store, context.clock),
    loginLimiter: new FailureLimiter(store, 'login'),
    mailLimiter: new WindowLimiter(store, 'mail', 20, 10 * 60),
  };
}
