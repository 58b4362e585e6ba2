import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryExpiringStore, createRedisExpiringStore, type ExpiringStore } from '../platform/expiring-store.ts';
import { systemClock } from '../platform/clock.ts';
import { connectRedis, type Redis } from '../platform/redis.ts';
import { AppError } from './app-error.ts';
import { FailureLimiter } from './rate-limit.ts';
import { SlowDown } from './slow-down.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const redisConnections: Redis[] = [];

afterAll(() => {
  for (const redis of redisConnections) redis.disconnect();
});

const stores: Array<{ name: string; open: () => Promise<ExpiringStore> }> = [{ name: 'memory', open: async () => createMemoryExpiringStore(systemClock) }];
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

const isTooMany = (error: unknown) => error instanceof AppError && error.status === 429;
/** A slow-down that records what it was asked to wait instead of waiting. */
const recordingSlowDown = () => {
  const waits: number[] = [];
  return { waits, slowDown: new SlowDown({}, async (ms) => void waits.push(ms)) };
};

describe.each(stores)('failure limiter ($name)', ({ open }) => {
  const unique = () => `test-${randomBytes(6).toString('hex')}`;

  it('lets at most the per-username limit of 200 parallel attempts reach the check', async () => {
    const limiter = new FailureLimiter(await open(), unique(), { perUsername: 10, perIp: 1000, windowSeconds: 60 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 200 }, (_, index) => limiter.reserve(`10.1.${Math.floor(index / 250)}.${index % 250}`, 'alice')),
    );
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome.status === 'rejected').every((outcome) => isTooMany(outcome.reason))).toBe(true);
  });

  it('refuses a username past its limit whatever the address, until a success forgives it', async () => {
    const limiter = new FailureLimiter(await open(), unique(), { perUsername: 2, perIp: 100, windowSeconds: 60 });
    await limiter.reserve('10.0.0.1', 'alice');
    await limiter.reserve('10.0.0.2', 'alice');
    await expect(limiter.reserve('10.0.0.3', 'Alice')).rejects.toSatisfy(isTooMany);
    await expect(limiter.reserve('10.0.0.4', 'bob')).resolves.toBeDefined();
  });

  it('gives the attempt back on success or release, so correct logins never use up the address', async () => {
    const limiter = new FailureLimiter(await open(), unique(), { perUsername: 2, perIp: 2, windowSeconds: 60 });
    const steppedUp: number[] = [];
    const stepUp = async (excess: number) => void steppedUp.push(excess);
    await limiter.reserve('10.0.0.1', 'alice', stepUp);
    for (let login = 0; login < 5; login += 1) await (await limiter.reserve('10.0.0.1', `user${login}`, stepUp)).succeeded();
    await (await limiter.reserve('10.0.0.3', 'alice', stepUp)).succeeded();
    await limiter.reserve('10.0.0.3', 'alice', stepUp);
    await limiter.reserve('10.0.0.4', 'alice', stepUp);
    await expect(limiter.reserve('10.0.0.5', 'alice', stepUp)).rejects.toSatisfy(isTooMany);
    for (const username of ['carol', 'dan', 'eve']) await (await limiter.reserve('10.0.0.2', username, stepUp)).release();
    expect(steppedUp).toEqual([]);
    await limiter.reserve('10.0.0.6', 'carol');
    await limiter.reserve('10.0.0.7', 'carol');
    await expect(limiter.reserve('10.0.0.8', 'carol')).rejects.toSatisfy(isTooMany);
  });

  it('steps up an address past its limit instead of refusing it, for every account', async () => {
    const limiter = new FailureLimiter(await open(), unique(), { perUsername: 10, perIp: 3, windowSeconds: 60 });
    const steppedUp: number[] = [];
    const stepUp = async (excess: number) => void steppedUp.push(excess);
    for (const username of ['a', 'b', 'c']) await limiter.reserve('10.0.0.9', username, stepUp);
    expect(steppedUp).toEqual([]);
    await expect(limiter.reserve('10.0.0.9', 'dave', stepUp)).resolves.toBeDefined();
    await expect(limiter.reserve('10.0.0.9', 'erin', stepUp)).resolves.toBeDefined();
    expect(steppedUp).toEqual([1, 2]);
    await limiter.reserve('10.0.0.10', 'frank', stepUp);
    expect(steppedUp).toEqual([1, 2]);
  });

  it('slows an address past its limit down by default, and a refused step-up reaches no username count', async () => {
    const { waits, slowDown } = recordingSlowDown();
    const limiter = new FailureLimiter(await open(), unique(), { perUsername: 1, perIp: 1, windowSeconds: 60 }, slowDown);
    await limiter.reserve('10.0.0.5', 'a');
    await limiter.reserve('10.0.0.5', 'b');
    await limiter.reserve('10.0.0.5', 'c');
    expect(waits).toEqual([250, 500]);
    const refuse = async () => {
      throw new AppError({ zh: '人机验证', en: 'human check' });
    };
    await expect(limiter.reserve('10.0.0.5', 'dave', refuse)).rejects.toThrow('human check');
    await expect(limiter.reserve('10.0.0.6', 'dave')).resolves.toBeDefined();
  });
});
