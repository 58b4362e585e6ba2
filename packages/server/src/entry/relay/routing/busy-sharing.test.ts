import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { PrimaryBusyBoard } from '../../../domain/cluster/primary-busy.ts';
import { BusyCounts } from './busy-counts.ts';
import { redisBusyExchange } from './busy-sharing.ts';

describe("the primary's board of the workers' requests in flight", () => {
  it('answers each worker the others added up and drops a worker that stopped reporting', () => {
    const board = new PrimaryBusyBoard();
    expect(board.report(1, { 7: 2, 8: 1 }, 1_000)).toEqual({});
    expect(board.report(2, { 7: 3 }, 1_100)).toEqual({ 7: 2, 8: 1 });
    expect(board.report(1, { 7: 1 }, 1_200)).toEqual({ 7: 3 });
    // Worker 2 is silent for longer than the reports live: its counts no longer count.
    expect(board.report(1, { 7: 1 }, 4_000)).toEqual({});
  });
});

describe('in-flight counts in one process', () => {
  it("adds the others' reports to its own exact count", () => {
    const busy = new BusyCounts();
    busy.started(5);
    busy.started(5);
    busy.ended(5);
    busy.setOthers(new Map([[5, 4]]));
    expect(busy.of(5)).toBe(5);
    expect(busy.localOf(5)).toBe(1);
    busy.ended(5);
    expect(busy.snapshot()).toEqual({});
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('in-flight counts between instances through Redis', () => {
  const redis = new Redis(redisUrl ?? '', { lazyConnect: false });
  const namespace = `busy-test-${process.pid}-${Date.now()}`;
  afterAll(async () => {
    await redis.del(`switchboard:busy:${namespace}`);
    redis.disconnect();
  });

  it("shows each instance the others' counts, not its own, and forgets an instance that went quiet", async () => {
    const first = redisBusyExchange(redis, namespace, 'instance-a');
    const second = redisBusyExchange(redis, namespace, 'instance-b');
    const third = redisBusyExchange(redis, namespace, 'instance-c');
    const now = Date.now();
    expect(await first({ 1: 4 }, now)).toEqual(new Map());
    expect(await second({ 1: 1, 2: 2 }, now)).toEqual(new Map([[1, 4]]));
    expect(await third({}, now + 100)).toEqual(
      new Map([
        [1, 5],
        [2, 2],
      ]),
    );
    // Three seconds on, only the instance that reported again counts.
    expect(await first({ 1: 1 }, now + 3_000)).toEqual(new Map());
    expect(await second({}, now + 3_000)).toEqual(new Map([[1, 1]]));
    expect(await redis.hkeys(`switchboard:busy:${namespace}`)).not.toContain('instance-c');
  });
});
