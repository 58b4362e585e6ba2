import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../core/platform/logger.ts';
import { randomAlphanumeric } from '../../core/platform/random.ts';
import { RedisSpendCoordinator } from './redis-spend-coordinator.ts';

const redisUrl = process.env.TEST_REDIS_URL;

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = { warn: (first: unknown, second?: unknown) => warnings.push(typeof first === 'string' ? first : String(second)) } as unknown as Logger;
  return { logger, warnings };
}

/**
 * The deployment's spending book in Redis: while Redis is away each process guards its balances
 * alone, and the operator reads when that starts and when it ends, once per outage.
 */
describe.skipIf(!redisUrl)('the Redis spending book when Redis comes and goes', () => {
  it('warns once when Redis is lost, logs when it answers again, and warns again at the next outage', async () => {
    // No reconnecting by itself: the test decides when Redis is back.
    const redis = new Redis(redisUrl!, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null });
    redis.on('error', () => undefined);
    await redis.connect();
    const { logger, warnings } = recordingLogger();
    const book = new RedisSpendCoordinator(redis, { namespace: `test-${randomAlphanumeric(8)}`, holder: 'h1', logger });
    const request = { seed: 1_000_000, worst: 1000, expected: 100, carried: 0, generation: 0 };
    const key = `token:${randomAlphanumeric(6)}`;
    try {
      expect((await book.acquire(key, request)).granted).toBeGreaterThan(0);
      expect(warnings).toEqual([]);
      for (let outage = 1; outage <= 2; outage += 1) {
        const ended = new Promise((resolve) => redis.once('end', resolve));
        redis.disconnect();
        await ended;
        // Guarded alone meanwhile: granted from the local book, never an error.
        expect((await book.acquire(key, request)).granted).toBeGreaterThan(0);
        expect((await book.acquire(key, request)).granted).toBeGreaterThan(0);
        expect(warnings).toHaveLength(2 * outage - 1);
        expect(warnings.at(-1)).toBe('Redis unreachable: balances are guarded by this process alone until it answers again');
        await redis.connect();
        expect((await book.acquire(key, request)).granted).toBeGreaterThan(0);
        expect(warnings).toHaveLength(2 * outage);
        expect(warnings.at(-1)).toBe('Redis answers again: balances are guarded for the whole deployment again');
      }
    } finally {
      redis.disconnect();
    }
  });
});
