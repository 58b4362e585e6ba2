import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { Logger } from '../../core/platform/logger.ts';
import { FallbackLimitStore, openLimitStore } from './fallback-limit-store.ts';
import type { LimitRule, LimitStore } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { windowSlot } from './window-slot.ts';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);

function recordingLogger(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  const logger = {
    warn: (first: unknown, second?: unknown) => warnings.push(typeof first === 'string' ? first : String(second)),
  } as unknown as Logger;
  return { logger, warnings };
}

function rule(limit: number): LimitRule {
  const slot = windowSlot(`fallback:${process.pid}:${Math.random()}`, 60_000, now);
  return { kind: 'window', key: slot.key, limit, cost: 1, ttlMs: slot.remainingMs };
}

/** A shared store whose every call fails, as a Redis that went away mid-command. */
const failingShared: LimitStore = {
  admit: () => Promise.reject(new Error('Connection is closed.')),
  settle: () => Promise.reject(new Error('Connection is closed.')),
};

describe('the limit store when Redis is lost', () => {
  it('limits locally with one warning, then uses the shared store again once it answers', async () => {
    const { logger, warnings } = recordingLogger();
    let realTime = 0;
    let sharedFails = true;
    const shared = new MemoryLimitStore();
    const store = new FallbackLimitStore({
      shared: {
        admit: (rules, at) => (sharedFails ? failingShared.admit(rules, at) : shared.admit(rules, at)),
        settle: (changes, at) => shared.settle(changes, at),
      },
      sharedReady: () => true,
      local: new MemoryLimitStore(),
      logger,
      realNow: () => realTime,
    });
    const limited = rule(3);
    const answers = await Promise.all(Array.from({ length: 10 }, () => store.admit([limited], now)));
    // Never an error: the local store still holds the limit on this instance.
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(3);
    expect(store.isDegraded).toBe(true);
    expect(warnings).toEqual(['Redis is unreachable: request limits are counted on this instance only until it answers again']);

    sharedFails = false;
    // Within the pause the shared store is not asked.
    expect((await store.admit([rule(5)], now)).admitted).toBe(true);
    expect(store.isDegraded).toBe(true);
    realTime += 5000;
    const back = await store.admit([rule(5)], now);
    expect(back).toMatchObject({ admitted: true });
    expect(store.isDegraded).toBe(false);
    // Said once, so the operator who read the first warning knows the limits are shared again.
    expect(warnings.slice(1)).toEqual(['Redis answers again: request limits are shared across instances again']);
    await store.admit([rule(5)], now);
    expect(warnings).toHaveLength(2);
  });

  it("counts a worker's share alone while its primary does not answer, instead of failing the request", async () => {
    const { logger, warnings } = recordingLogger();
    let primaryAnswers = false;
    const primary = new MemoryLimitStore();
    // The primary's store as a worker sees it: the link's request rejects once its 5 s bound runs out.
    const machine: LimitStore = {
      admit: (rules, at) => (primaryAnswers ? primary.admit(rules, at) : Promise.reject(new Error('the primary process did not answer'))),
      settle: (changes, at) => primary.settle(changes, at),
    };
    const opened = openLimitStore(undefined, logger, { machine, machineWorkers: 2 });
    const limited = rule(6);
    const answers = await Promise.all(Array.from({ length: 10 }, () => opened.store.admit([limited], now)));
    // Two workers on the machine: this one lets through its half of the limit, and refuses the rest with a retry time.
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(3);
    expect(answers.filter((answer) => !answer.admitted).every((answer) => !answer.admitted && answer.retryAfterMs > 0)).toBe(true);
    expect(warnings).toEqual([
      'the primary process does not answer: request limits are counted by this worker alone (its share of each limit) until it answers again',
    ]);
    primaryAnswers = true;
    expect((await opened.store.admit([rule(6)], now)).admitted).toBe(true);
    opened.close();
  });

  it.skipIf(!process.env.TEST_REDIS_URL)('answers at once from memory when its Redis connection is down, without waiting for it', async () => {
    const redis = new Redis(process.env.TEST_REDIS_URL ?? '', { lazyConnect: true });
    const { logger, warnings } = recordingLogger();
    const opened = openLimitStore(redis, logger);
    try {
      // The store's own connection: connect it, then lose it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      opened.close();
      const started = performance.now();
      const limited = rule(2);
      const answers = await Promise.all(Array.from({ length: 5 }, () => opened.store.admit([limited], now)));
      expect(performance.now() - started).toBeLessThan(1000);
      expect(answers.filter((answer) => answer.admitted)).toHaveLength(2);
      expect(warnings).toHaveLength(1);
    } finally {
      redis.disconnect();
    }
  });
});
