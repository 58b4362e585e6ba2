import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { WindowLimiter } from '../http/rate-limit.ts';
import { createMemoryExpiringStore, createRedisExpiringStore, type ExpiringStore } from './expiring-store.ts';
import { connectRedis, type Redis } from './redis.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redisConnections: Redis[] = [];

afterAll(() => {
  for (const redis of redisConnections) redis.disconnect();
});

let offsetMs = 0;
const clock = { now: () => Date.now() + offsetMs, unixSeconds: () => Math.floor((Date.now() + offsetMs) / 1000) };

const stores: Array<{ name: string; open: () => Promise<ExpiringStore> }> = [{ name: 'memory', open: async () => createMemoryExpiringStore(clock) }];
if (redisUrl) {
  stores.push({
    name: 'redis',
    open: async () => {
      const redis = await connectRedis(redisUrl);
      redisConnections.push(redis);
      return createRedisExpiringStore(redis);
    },
  });
}

describe.each(stores)('expiring store ($name)', ({ open }) => {
  const unique = () => `test:${randomBytes(6).toString('hex')}`;

  it('sets, reads, takes once and deletes', async () => {
    const store = await open();
    const key = unique();
    await store.set(key, 'value', 60);
    expect(await store.get(key)).toBe('value');
    const [first, second] = await Promise.all([store.take(key), store.take(key)]);
    expect([first, second].filter((value) => value === 'value')).toHaveLength(1);
    expect(await store.get(key)).toBeUndefined();
    await store.set(key, 'again', 60);
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
  });

  it('stores only when absent and counts up', async () => {
    const store = await open();
    const key = unique();
    expect(await store.setIfAbsent(key, 'a', 60)).toBe(true);
    expect(await store.setIfAbsent(key, 'b', 60)).toBe(false);
    expect(await store.get(key)).toBe('a');
    const counter = unique();
    expect(await store.increment(counter, 60)).toBe(1);
    expect(await store.increment(counter, 60)).toBe(2);
  });

  it('takes one back from a live count and never revives a missing one', async () => {
    const store = await open();
    const counter = unique();
    await store.increment(counter, 60);
    await store.increment(counter, 60);
    expect(await store.decrement(counter)).toBe(1);
    expect(await store.increment(counter, 60)).toBe(2);
    const missing = unique();
    expect(await store.decrement(missing)).toBe(0);
    expect(await store.get(missing)).toBeUndefined();
  });
});

describe.runIf(redisUrl)('redis counters', () => {
  const full = (key: string) => `switchboard:kv:${key}`;
  const open = async () => {
    const redis = await connectRedis(redisUrl ?? '');
    redisConnections.push(redis);
    return { redis, store: createRedisExpiringStore(redis) };
  };

  it('has its expiry from the first increment on, and a given-back count keeps it', async () => {
    const { redis, store } = await open();
    const key = `test:${randomBytes(6).toString('hex')}`;
    expect(await store.increment(key, 60)).toBe(1);
    const ttl = await redis.ttl(full(key));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    await store.increment(key, 60);
    await store.decrement(key);
    expect(await redis.ttl(full(key))).toBeGreaterThan(0);
  });

  it('gives an expiry to a counter left without one (an INCR whose EXPIRE never ran)', async () => {
    const { redis, store } = await open();
    const key = `test:${randomBytes(6).toString('hex')}`;
    await redis.set(full(key), '5');
    expect(await redis.ttl(full(key))).toBe(-1);
    expect(await store.increment(key, 60)).toBe(6);
    expect(await redis.ttl(full(key))).toBeGreaterThan(0);
  });
});

describe('window limiter', () => {
  it('allows the limit within the window and refuses the next action with 429', async () => {
    const limiter = new WindowLimiter(createMemoryExpiringStore(clock), 'mail', 2, 60);
    await limiter.hit('10.0.0.1');
    await limiter.hit('10.0.0.1');
    await expect(limiter.hit('10.0.0.1')).rejects.toMatchObject({ status: 429 });
    await limiter.hit('10.0.0.2');
    offsetMs += 61_000;
    await limiter.hit('10.0.0.1');
  });
});

describe('memory store expiry', () => {
  it('forgets values once their time is up', async () => {
    const store = createMemoryExpiringStore(clock);
    await store.set('short', 'x', 30);
    await store.increment('count', 30);
    offsetMs += 31_000;
    expect(await store.get('short')).toBeUndefined();
    expect(await store.setIfAbsent('short', 'y', 30)).toBe(true);
    expect(await store.increment('count', 30)).toBe(1);
  });
});

describe('memory store bounds', () => {
  it('holds at most its capacity, keeping the newest entries, and still honours expiry', async () => {
    const store = createMemoryExpiringStore(clock, { capacity: 100 });
    for (let index = 0; index < 1000; index += 1) await store.set(`key-${index}`, String(index), 30);
    const kept = [];
    for (let index = 0; index < 1000; index += 1) if ((await store.get(`key-${index}`)) !== undefined) kept.push(index);
    expect(kept.length).toBeLessThanOrEqual(100);
    expect(kept).toContain(999);
    offsetMs += 31_000;
    expect(await store.get('key-999')).toBeUndefined();
  });

  it('keeps the window of a counter from its first increment', async () => {
    const store = createMemoryExpiringStore(clock);
    expect(await store.increment('window', 30)).toBe(1);
    offsetMs += 20_000;
    expect(await store.increment('window', 30)).toBe(2);
    offsetMs += 11_000;
    expect(await store.increment('window', 30)).toBe(1);
  });
});
