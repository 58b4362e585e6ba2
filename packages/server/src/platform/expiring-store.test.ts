import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { FailureLimiter, WindowLimiter } from '../http/rate-limit.ts';
import { AppError } from '../http/app-error.ts';
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

  it('limits failures per username and per address', async () => {
    const store = await open();
    const limiter = new FailureLimiter(store, unique(), { perUsername: 2, perIp: 3, windowSeconds: 60 });
    const refused = async (ip: string, username: string) => limiter.assertAllowed(ip, username).then(() => false, (error: unknown) => error instanceof AppError && error.status === 429);
    await limiter.recordFailure('10.0.0.1', 'alice');
    await limiter.recordFailure('10.0.0.2', 'alice');
    expect(await refused('10.0.0.3', 'Alice')).toBe(true);
    await limiter.recordSuccess('alice');
    expect(await refused('10.0.0.3', 'alice')).toBe(false);
    await limiter.recordFailure('10.0.0.9', 'bob');
    await limiter.recordFailure('10.0.0.9', 'carol');
    expect(await refused('10.0.0.9', 'dave')).toBe(false);
    await limiter.recordFailure('10.0.0.9', 'erin');
    expect(await refused('10.0.0.9', 'dave')).toBe(true);
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
