import type { BalanceChanges } from '../../../domain/billing/balance-changes.ts';
import type { Config } from '../../../core/config/config.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { Redis } from '../../../core/platform/redis.ts';
import type { SessionService } from '../../../domain/auth/session-service.ts';
import type { OutsideEndpoints } from '../../../core/config/outside-endpoints.ts';
import { FailureLimiter, WindowLimiter } from '../../../core/http/rate-limit.ts';
import type { LogWriter } from '../../../domain/logs/log-writer.repository.ts';
import type { OptionStore } from '../../../domain/options/option-store.ts';
import type { ChangeBus } from '../../../core/platform/change-bus.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import type { ExpiringStore } from '../../../core/platform/expiring-store.ts';
import type { OutgoingRequests } from '../../../core/platform/outgoing/outgoing-requests.ts';
import { openExpiringStore } from '../../../domain/cluster/shared-expiring-store.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import { Mailer } from '../../../core/platform/mailer.ts';
import { TurnstileVerifier } from '../verification/turnstile.ts';
import { VerificationCodes } from '../verification/verification-codes.ts';
import { UserCreation } from './user-creation.ts';
import { UserRepository } from './user.repository.ts';

/** What the account routes share, built once per app by `registerAccountRoutes`. */
export interface AccountServices {
  readonly users: UserRepository;
  readonly creation: UserCreation;
  readonly options: OptionStore;
  readonly sessions: SessionService;
  readonly logWriter: LogWriter;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  readonly logger: Logger;
  /** Addresses of GitHub, Linux DO and Turnstile (tests point them at local fakes). */
  readonly outsideEndpoints: OutsideEndpoints;
  /** Requests to addresses an administrator typed (the WeChat server), under the outgoing-request policy. */
  readonly outgoing: OutgoingRequests;
  /** Codes, OAuth states, cooldowns and failure counts: Redis-backed when REDIS_CONN_STRING is set. */
  readonly store: ExpiringStore;
  readonly mailer: Mailer;
  readonly turnstile: TurnstileVerifier;
  readonly codes: VerificationCodes;
  readonly loginLimiter: FailureLimiter;
  /** Mails (codes, reset links) one client address may trigger: stops mail bombing many addresses. */
  readonly mailLimiter: WindowLimiter;
  /** Tells the spending guard of quota moved in from invitation earnings. */
  readonly balanceChanges: BalanceChanges;
}

/** What the account services are built from: the users table, the short-lived values' store and what they share as is. */
export interface AccountServicesDependencies extends Pick<
  AccountServices,
  'options' | 'sessions' | 'logWriter' | 'bus' | 'clock' | 'logger' | 'outgoing' | 'balanceChanges'
> {
  readonly database: DatabaseHandle;
  /** Codes, states and counts are shared by every instance when REDIS_CONN_STRING is set. */
  readonly redis?: Redis;
  readonly config: Pick<Config, 'outsideEndpoints'>;
}

export function createAccountServices(context: AccountServicesDependencies): AccountServices {
  const users = new UserRepository(context.database.db, context.database.dialect);
  const store = openExpiringStore(context.redis, context.clock);
  const { options, sessions, logWriter, bus, clock, logger } = context;
  return {
    users,
    creation: new UserCreation({ users, options, logWriter, clock, bus }),
    options,
    sessions,
    logWriter,
    bus,
    clock,
    logger,
    outsideEndpoints: context.config.outsideEndpoints,
    outgoing: context.outgoing,
    store,
    mailer: new Mailer(options),
    turnstile: new TurnstileVerifier(options, context.config.outsideEndpoints.turnstileVerifyUrl),
    codes: new VerificationCodes(store, clock),
    loginLimiter: new FailureLimiter(store, 'login'),
    mailLimiter: new WindowLimiter(store, 'mail', 20, 10 * 60),
    balanceChanges: context.balanceChanges,
  };
}
