import { systemClock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Redis } from '../platform/redis.ts';
import type { Admission, LimitChange, LimitRule, LimitStore } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { RedisLimitStore } from './redis-limit-store.ts';

/**
 * A shared store answering slower than this is treated as lost. Generous: a busy event loop delays
 * reading an answer that has already arrived, and a request counted locally after a timeout may have
 * been counted by Redis as well.
 */
const sharedTimeoutMs = 5000;
/** After a failure the shared store is left alone this long (real time), so a hung Redis stalls few requests. */
const retrySharedAfterMs = 5000;

/**
 * The shared store while it answers, this process's own counts while it does not. A lost Redis must
 * never become an outage of the relay: requests are then limited per instance (each instance allows
 * the whole limit, so a cluster allows more), a warning says so once, and the shared counts resume
 * when Redis is back.
 */
export class FallbackLimitStore implements LimitStore {
  private readonly shared: LimitStore;
  private readonly sharedReady: () => boolean;
  private readonly local: LimitStore;
  private readonly logger: Logger;
  private degraded = false;
  private skipSharedUntil = 0;

  /** Real time for the retry pause (not the request clock tests move). */
  private readonly realNow: () => number;

  constructor(options: { shared: LimitStore; sharedReady: () => boolean; local: LimitStore; logger: Logger; realNow?: () => number }) {
    this.realNow = options.realNow ?? systemClock.now;
    this.shared = options.shared;
    this.sharedReady = options.sharedReady;
    this.local = options.local;
    this.logger = options.logger;
  }

  /** True while requests are limited on this instance only. */
  get isDegraded(): boolean {
    return this.degraded;
  }

  async admit(rules: readonly LimitRule[], now: number): Promise<Admission> {
    if (this.sharedReady() && this.realNow() >= this.skipSharedUntil) {
      try {
        const admission = await this.shared.admit(rules, now);
        this.recovered();
        return admission;
      } catch (error) {
        this.skipSharedUntil = this.realNow() + retrySharedAfterMs;
        this.degrade(error);
      }
    } else {
      this.degrade(undefined);
    }
    return this.local.admit(rules, now);
  }

  async settle(changes: readonly LimitChange[], now: number): Promise<void> {
    await this.shared.settle(changes, now).catch(() => undefined);
  }

  private degrade(error: unknown): void {
    if (this.degraded) return;
    this.degraded = true;
    this.logger.warn({ err: error }, 'Redis is unreachable: request limits are counted on this instance only until it answers again');
  }

  private recovered(): void {
    if (!this.degraded) return;
    this.degraded = false;
    this.logger.warn('Redis answers again: request limits are shared across instances again');
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
export function openLimitStore(redis: Redis | undefined, logger: Logger): OpenedLimitStore {
  const local = new MemoryLimitStore();
  if (!redis) return { store: local, close: () => undefined };
  const connection = redis.duplicate({ enableOfflineQueue: false, commandTimeout: sharedTimeoutMs, maxRetriesPerRequest: 0, lazyConnect: true });
  // Errors surface through the store's warning; an unhandled 'error' event would only repeat them.
  connection.on('error', () => undefined);
  connection.connect().catch(() => undefined);
  const store = new FallbackLimitStore({ shared: new RedisLimitStore(connection), sharedReady: () => connection.status === 'ready', local, logger });
  return { store, close: () => connection.disconnect() };
}
