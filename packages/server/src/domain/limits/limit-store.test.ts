import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LimitRule, LimitStore } from './limit-store.ts';
import { MemoryLimitStore } from './memory-limit-store.ts';
import { RedisLimitStore } from './redis-limit-store.ts';
import { windowSlot } from './window-slot.ts';

const redisUrl = process.env.TEST_REDIS_URL;
let redis: Redis | undefined;
let run = 0;

beforeAll(async () => {
  if (redisUrl) redis = new Redis(redisUrl, { lazyConnect: true });
  await redis?.connect();
});
afterAll(() => redis?.disconnect());

const stores: Array<{ name: string; open: () => LimitStore }> = [
  { name: 'memory', open: () => new MemoryLimitStore() },
  ...(redisUrl
    ? [
        {
          name: 'redis',
          open: () => {
            if (!redis) throw new Error('Redis not connected');
            return new RedisLimitStore(redis);
          },
        },
      ]
    : []),
];

/** Keys unique per test and run: the Redis database outlives test runs. */
function key(name: string): string {
  run += 1;
  return `test:${process.pid}:${Date.now()}:${run}:${name}`;
}

function perMinute(base: string, limit: number, now: number, cost = 1): LimitRule {
  const slot = windowSlot(base, 60_000, now);
  return { kind: 'window', key: slot.key, limit, cost, ttlMs: slot.remainingMs };
}

describe.each(stores)('$name limit store', ({ open }) => {
  const start = Date.UTC(2026, 0, 1, 12, 0, 10);

  it('admits exactly the limit out of hundreds of simultaneous requests, and a new window admits again', async () => {
    const store = open();
    const base = key('rpm');
    const answers = await Promise.all(Array.from({ length: 400 }, () => store.admit([perMinute(base, 37, start)], start)));
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(37);
    const refusal = answers.find((answer) => !answer.admitted);
    // Refused 10 s into the minute: retry when it ends, 50 s later.
    expect(refusal).toEqual({ admitted: false, refused: 0, retryAfterMs: 50_000 });

    const nextMinute = start + 60_000;
    const later = await Promise.all(Array.from({ length: 100 }, () => store.admit([perMinute(base, 37, nextMinute)], nextMinute)));
    expect(later.filter((answer) => answer.admitted)).toHaveLength(37);
  });

  it('counts all rules of a request or none: a refusal by one leaves the others untouched', async () => {
    const store = open();
    const wide = key('wide');
    const narrow = key('narrow');
    const rules = () => [perMinute(wide, 100, start), perMinute(narrow, 3, start)];
    const answers = await Promise.all(Array.from({ length: 50 }, () => store.admit(rules(), start)));
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(3);
    expect(answers.filter((answer) => !answer.admitted && answer.refused === 1)).toHaveLength(47);
    // The wide window counted only the 3 admitted requests: 97 more fit alone.
    const alone = await Promise.all(Array.from({ length: 120 }, () => store.admit([perMinute(wide, 100, start)], start)));
    expect(alone.filter((answer) => answer.admitted)).toHaveLength(97);
  });

  it('counts costs (tokens), lets one oversized request through an empty window, and takes corrections', async () => {
    const store = open();
    const base = key('tpm');
    const oversized = await store.admit([perMinute(base, 1000, start, 1500)], start);
    expect(oversized.admitted).toBe(true);
    expect((await store.admit([perMinute(base, 1000, start, 1)], start)).admitted).toBe(false);
    // The request really used 200 tokens: 800 are left this minute.
    const slot = windowSlot(base, 60_000, start);
    await store.settle([{ kind: 'window', key: slot.key, delta: 200 - 1500 }], start);
    const answers = await Promise.all(Array.from({ length: 30 }, () => store.admit([perMinute(base, 1000, start, 100)], start)));
    expect(answers.filter((answer) => answer.admitted)).toHaveLength(8);
  });

  it('holds at most the concurrency limit of leases, frees a slot on release, and expires a lease never released', async () => {
    const store = open();
    const base = key('concurrency');
    const lease = (id: string): LimitRule => ({ kind: 'concurrency', key: base, limit: 4, leaseId: id, ttlMs: 60_000 });
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => store.admit([lease(`r${index}`)], start)));
    const admitted = answers.flatMap((answer, index) => (answer.admitted ? [index] : []));
    expect(admitted).toHaveLength(4);
    expect(answers.find((answer) => !answer.admitted)).toEqual({ admitted: false, refused: 0, retryAfterMs: 1000 });

    await store.settle([{ kind: 'concurrency', key: base, leaseId: `r${admitted[0]}` }], start);
    const afterRelease = await Promise.all(Array.from({ length: 20 }, (_, index) => store.admit([lease(`s${index}`)], start)));
    expect(afterRelease.filter((answer) => answer.admitted)).toHaveLength(1);

    // Nobody releases the others (their instance died): a minute later their leases are gone.
    const later = start + 60_001;
    const afterExpiry = await Promise.all(Array.from({ length: 20 }, (_, index) => store.admit([lease(`t${index}`)], later)));
    expect(afterExpiry.filter((answer) => answer.admitted)).toHaveLength(4);
  });
});
