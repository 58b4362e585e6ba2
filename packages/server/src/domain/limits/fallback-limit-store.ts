import { systemClock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { Redis } from '../../core/platform/redis.ts';
import type { Admission, LimitChange, LimitRule, LimitStore } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { randomAlphanumeric } from '../../core/platform/random.ts';
import { ProcessRoster } from './process-roster.ts';
import { RedisLimitStore } from './redis-limit-store.ts';

/**
 * A shared store answering slower than this is treated as lost. Generous: a busy event loop delays
 * reading an answer that has already arrived, and a request counted locally after a timeout may have
 * been counted by Redis as well.
 */
const sharedTimeoutMs = 5000;
/** After a failure the shared store is left alone this long (real time), so a hung Redis stalls few requests. */
const retrySharedAfterMs = 5000;

/** What the operator reads when the shared store is lost and when it answers again. */
export interface FallbackWarnings {
  readonly lost: string;
  readonly back: string;
}

const redisWarnings: FallbackWarnings = {
  lost: 'Redis is unreachable: request limits are counted on this instance only until it answers again',
  back: 'Redis answers again: request limits are shared across instances again',
};

/** A worker whose primary does not answer within the link's bound (a stuck or busy primary). */
const primaryWarnings: FallbackWarnings = {
  lost: 'the primary process does not answer: request limits are counted by this worker alone (its share of each limit) until it answers again',
  back: 'the primary process answers again: request limits are counted for the whole machine again',
};

/**
 * The shared store while it answers, this process's own counts while it does not. A lost Redis must
 * never become an outage of the relay: requests are then limited by each process to its share of
 * every limit (the limit divided by the processes last seen alive, see process-roster.ts), a warning
 * says so once, and when Redis is back what was counted meanwhile is added to its windows, so an
 * outage lets through about one window's limit, not one per process.
 */
export class FallbackLimitStore implements LimitStore {
  private readonly shared: LimitStore & { merge?(windows: ReturnType<MemoryLimitStore['takeWindows']>): Promise<void> };
  private readonly sharedReady: () => boolean;
  private readonly local: MemoryLimitStore;
  /** How many processes share each limit while Redis is away. */
  private readonly share: () => number;
  private readonly logger: Logger;
  private readonly warnings: FallbackWarnings;
  private degraded = false;
  private skipSharedUntil = 0;

  /** Real time for the retry pause (not the request clock tests move). */
  private readonly realNow: () => number;

  constructor(options: {
    shared: LimitStore & { merge?(windows: ReturnType<MemoryLimitStore['takeWindows']>): Promise<void> };
    sharedReady: () => boolean;
    local: MemoryLimitStore;
    logger: Logger;
    share?: () => number;
    realNow?: () => number;
    /** Redis's by default. */
    warnings?: FallbackWarnings;
  }) {
    this.warnings = options.warnings ?? redisWarnings;
    this.realNow = options.realNow ?? systemClock.now;
    this.shared = options.shared;
    this.sharedReady = options.sharedReady;
    this.local = options.local;
    this.logger = options.logger;
    this.share = options.share ?? (() => 1);
  }

  /** How many processes each limit is shared by while Redis is away (the last count of live ones). */
  get sharedBy(): number {
    return Math.max(1, this.share());
  }

  /** True while requests are limited on this instance only. */
  get isDegraded(): boolean {
    return this.degraded;
  }

  async admit(rules: readonly LimitRule[], now: number): Promise<Admission> {
    if (this.sharedReady() && this.realNow() >= this.skipSharedUntil) {
      try {
        const admission = await this.shared.admit(rules, now);
        this.recovered(now);
        return admission;
      } catch (error) {
        this.skipSharedUntil = this.realNow() + retrySharedAfterMs;
        this.degrade(error);
      }
    } else {
      this.degrade(undefined);
    }
    const share = Math.max(1, this.share());
    return this.local.admit(share === 1 ? rules : rules.map((rule) => ({ ...rule, limit: Math.max(1, Math.floor(rule.limit / share)) })), now);
  }

  settle(changes: readonly LimitChange[], now: number): void | Promise<void> {
    try {
      const settled = this.shared.settle(changes, now);
      if (settled) return settled.catch(() => undefined);
    } catch {
      // Best effort, as a failed round trip: only a less exact count.
    }
  }

  private degrade(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn({ err: error }, this.warnings.lost);
  }

  private recovered(now: number): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.logger.warn(this.warnings.back);
    // What this process let through meanwhile counts in the shared windows (a restarted Redis starts from it).
    void this.shared.merge?.(this.local.takeWindows(now)).catch(() => undefined);
  }
}

export interface OpenedLimitStore {
  readonly store: LimitStore;
  close(): void;
}

/**
 * The limit store of this instance: memory alone without Redis; with Redis its own connection that
 * fails fast (no offline queue, a command timeout) so a lost Redis costs a request at most
 * `sharedTimeoutMs`, then nothing while ioredis reconnects in the background.
 */
export function openLimitStore(
  redis: Redis | undefined,
  logger: Logger,
  options: { machine?: LimitStore; machineWorkers?: number; namespace?: string } = {},
): OpenedLimitStore {
  const { machine, namespace } = options;
  const local = new MemoryLimitStore();
  // Without Redis: the machine's store (the primary counts for its workers), or this process's own.
  // A primary that does not answer within the link's bound (5 s) must not fail the request: the
  // worker then counts its share of each limit alone, as a process does while Redis is down.
  if (!redis && machine) {
    const workers = Math.max(1, options.machineWorkers ?? 1);
    const store = new FallbackLimitStore({ shared: machine, sharedReady: () => true, local, logger, share: () => workers, warnings: primaryWarnings });
    return { store, close: () => undefined };
  }
  if (!redis) return { store: local, close: () => undefined };
  const connection = redis.duplicate({ enableOfflineQueue: false, commandTimeout: sharedTimeoutMs, maxRetriesPerRequest: 0, lazyConnect: true });
  // Errors surface through the store's warning; an unhandled 'error' event would only repeat them.
  connection.on('error', () => undefined);
  connection.connect().catch(() => undefined);
  const roster = new ProcessRoster(connection, `${process.pid}.${randomAlphanumeric(8)}`);
  const store = new FallbackLimitStore({
    shared: new RedisLimitStore(connection, namespace),
    sharedReady: () => connection.status === 'ready',
    local,
    logger,
    share: () => roster.processes,
  });
  return {
    store,
    close: () => {
      roster.close();
      connection.disconnect();
    },
  };
}
