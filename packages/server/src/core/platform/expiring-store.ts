import { LRUCache } from 'lru-cache';
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
  /** Takes one back from a live count (an attempt given back) and returns it; a missing key stays missing (0). */
  decrement(key: string): Promise<number>;
}

const keyPrefix = 'switchboard:kv:';

/**
 * INCR and EXPIRE in one script, which Redis runs atomically: no crash or lost connection can leave a
 * counter without its expiry (a counter that never expires would lock its key out for good). A key
 * already lacking one (left by an older INCR-then-EXPIRE) gets it on its next increment.
 */
const incrementScript = `
local count = redis.call('INCR', KEYS[1])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return count`;

/** DECR only on a live key: DECR on a missing one would create a counter at -1 with no expiry. */
const decrementScript = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
return redis.call('DECR', KEYS[1])`;

interface CounterCommands {
  switchboardIncrement(key: string, ttlSeconds: number): Promise<number>;
  switchboardDecrement(key: string): Promise<number>;
}

/** ioredis sends a defined command as EVALSHA (the script once, then its hash). Defining twice is harmless. */
function withCounterCommands(redis: Redis): Redis & CounterCommands {
  redis.defineCommand('switchboardIncrement', { numberOfKeys: 1, lua: incrementScript });
  redis.defineCommand('switchboardDecrement', { numberOfKeys: 1, lua: decrementScript });
  return redis as Redis & CounterCommands;
}

export function createRedisExpiringStore(plainRedis: Redis): ExpiringStore {
  const redis = withCounterCommands(plainRedis);
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
      return Number(await redis.switchboardIncrement(full(key), ttlSeconds));
    },
    async decrement(key) {
      return Number(await redis.switchboardDecrement(full(key)));
    },
  };
}

/**
 * Entries the in-memory store holds at most. Past it the least recently used entry is dropped, so a
 * flood of distinct keys (one per guessed username) costs bounded memory and O(1) per write; a
 * dropped failure count only restarts that key's window. Deployments that need more share Redis.
 */
const defaultCapacity = 100_000;

export function createMemoryExpiringStore(clock: Clock, options: { capacity?: number } = {}): ExpiringStore {
  // ttlResolution 0: read the injected clock on every check rather than caching it behind a timer.
  // Bounded by `maxSize` at one unit per entry rather than by `max`: `max` makes lru-cache allocate all
  // its slots up front (about 2.4 MB for 100,000 at start, idle or not); these arrays grow with use.
  const entries = new LRUCache<string, string>({
    maxSize: options.capacity ?? defaultCapacity,
    sizeCalculation: () => 1,
    ttlResolution: 0,
    perf: { now: () => clock.now() },
  });
  const put = (key: string, value: string, ttlSeconds: number) => entries.set(key, value, { ttl: ttlSeconds * 1000 });
  return {
    async get(key) {
      return entries.get(key);
    },
    async set(key, value, ttlSeconds) {
      put(key, value, ttlSeconds);
    },
    async setIfAbsent(key, value, ttlSeconds) {
      if (entries.has(key)) return false;
      put(key, value, ttlSeconds);
      return true;
    },
    async take(key) {
      const value = entries.get(key);
      entries.delete(key);
      return value;
    },
    async delete(key) {
      entries.delete(key);
    },
    async increment(key, ttlSeconds) {
      const current = entries.get(key);
      if (current === undefined) {
        put(key, '1', ttlSeconds);
        return 1;
      }
      const count = Number(current) + 1;
      // The window runs from the first increment: later ones keep its expiry.
      entries.set(key, String(count), { noUpdateTTL: true });
      return count;
    },
    async decrement(key) {
      const current = entries.get(key);
      if (current === undefined) return 0;
      const count = Number(current) - 1;
      entries.set(key, String(count), { noUpdateTTL: true });
      return count;
    },
  };
}
