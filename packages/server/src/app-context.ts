import type { AuthRepository } from './domain/auth/auth.repository.ts';
import type { SessionService } from './domain/auth/session-service.ts';
import type { Config } from './core/config/config.ts';
import type { LimitStore } from './domain/limits/limit-store.ts';
import type { LogWriter } from './domain/logs/log-writer.repository.ts';
import type { OptionStore } from './domain/options/option-store.ts';
import type { BalanceChanges } from './domain/billing/balance-changes.ts';
import type { ChangeBus } from './core/platform/change-bus.ts';
import type { Clock } from './core/platform/clock.ts';
import type { DatabaseHandle } from './core/platform/database.ts';
import type { Logger } from './core/platform/logger.ts';
import type { Metrics } from './core/platform/metrics.ts';
import type { OutgoingRequests } from './core/platform/outgoing/outgoing-requests.ts';
import type { Redis } from './core/platform/redis.ts';
import type { Tracing } from './core/platform/tracing/tracing.ts';

/** What `buildApp` is given: every outside resource, opened by `main.ts` or by a test. */
export interface AppDependencies {
  readonly config: Config;
  readonly database: DatabaseHandle;
  /** The database holding `logs`: the main one unless LOG_SQL_DSN is set. */
  readonly logDatabase: DatabaseHandle;
  readonly redis?: Redis;
  readonly bus: ChangeBus;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Dependencies plus the services wired from them. The composition's own (`app.ts` builds it,
 * `compose-relay.ts` wires the relay from it): every module below is handed the members it uses, never
 * this whole (scripts/app-context-imports.test.ts).
 */
export interface AppContext extends AppDependencies {
  readonly options: OptionStore;
  readonly sessions: SessionService;
  readonly authRepository: AuthRepository;
  /** Writes rows of the logs table (type 1 top-up, 2 consume, 3 manage, 4 system). */
  readonly logWriter: LogWriter;
  readonly version: string;
  readonly startTime: number;
  /** Present when METRICS_TOKEN is set: modules add the figures they own. */
  readonly metrics?: Metrics;
  /** Present when OpenTelemetry tracing is configured (OTEL_* variables): the relay enriches its request spans. */
  readonly tracing?: Tracing;
  /** Requests to addresses users and administrators type (webhooks, the WeChat server, task images), under fetch_setting. */
  readonly outgoing: OutgoingRequests;
  /** Request-limit counters: in Redis shared by every instance when configured, else in memory. */
  readonly limitStore: LimitStore;
  /** Balances changed outside the relay's charges (top-ups, edits, refunds), told once by their writer. */
  readonly balanceChanges: BalanceChanges;
  /** Work to finish before the pools close on shutdown (pending log and quota writes). */
  readonly onShutdown: (task: () => Promise<void>) => void;
}
