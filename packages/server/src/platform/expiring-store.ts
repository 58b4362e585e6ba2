import type { Clock } from './clock.ts';
import type { Redis } from './redis.ts';

/**
 * Short-lived shared values: mail codes, OAuth states, resend cooldowns, failure counters. With Redis
 * every instance sees the same values (a code mailed by one instance verifies on another); without
 * it they live in this process only.
 */
export interface ExpiringStore {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Stores only when the key is absent; false when it was already there (a cooldown in force). */
  setIfAbsent(key: string, value: string, ttlSeconds: number): Promise<boolean>;
  /** Reads and deletes in one step, so a value can be used once even by two racing requests. */
  take(key: string): Promise<string | undefined>;
  delete(key: string): Promise<void>;
  /** Adds one and returns the new count; the window starts with the first increment. */
  increment(key: string, ttlSeconds: number): Promise<number>;
}

const keyPrefix = 'switchboard:kv:';

export function createRedisExpiringStore(redis: Redis): ExpiringStore {
  const full = (key: string) => keyPrefix + key;
  return {
    async get(key) {
      return (await redis.get(full(key))) ?? undefined;
    },
    async set(key, value, ttlSeconds) {
      await redis.set(full(key), value, 'EX', ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      return (await redis.set(full(key), value, 'EX', ttlSeconds, 'NX')) === 'OK';
    },
    async take(key) {
      // MULTI rather than GETDEL, which needs Redis 6.2.
      const [[, value]] = (await redis.multi().get(full(key)).del(full(key)).exec()) as [[unknown, string | null], unknown];
      return value ?? undefined;
    },
    async delete(key) {
      await redis.del(full(key));
    },
    async increment(key, ttlSeconds) {
      const count = await redis.incr(full(key));
      if (count === 1) await redis.expire(full(key), ttlSeconds);
      return count;
    },
  };
}

/** How many entries the in-memory store holds before it sweeps out expired ones. */
const sweepThreshold = 10_000;

export function createMemoryExpiringStore(clock: Clock): ExpiringStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= clock.now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const put = (key: string, value: string, ttlSeconds: number) => {
    if (entries.size >= sweepThreshold) for (const candidate of [...entries.keys()]) live(candidate);
    entries.set(key, { value, expiresAt: clock.now() + ttlSeconds * 1000 });
  };
  return {
    async get(key) {
      return live(key)?.value;
    },
    async set(key, value, ttlSeconds) {
      put(key, value, ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      if (live(key)) return false;
      put(key, value, ttlSeconds);
      return true;
    },
    async take(key) {
      const entry = live(key);
      entries.delete(key);
      return entry?.value;
    },
    async delete(key) {
      entries.delete(key);
    },
    async increment(key, ttlSeconds) {
      const entry = live(key);
      if (!entry) {
        put(key, '1', ttlSeconds);
        return 1;
      }
      entry.value = String(Number(entry.value) + 1);
      return Number(entry.value);
    },
  };
}
