import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturedLogger } from '../../testing/captured-logger.ts';
import { createLogger } from './logger.ts';
import { connectRedis, type Redis } from './redis.ts';
import type { ChangeBus } from './change-bus.ts';
import { createRedisChangeBus } from './redis-change-bus.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * Instances sharing Redis confirm each change they applied; the publisher waits for those present.
 * Other test files share this Redis and its channels, so each test uses topics of its own.
 */
describe.runIf(redisUrl)('the change bus through Redis', () => {
  let redis: Redis;
  const opened: ChangeBus[] = [];
  const open = async (logger = createLogger('silent'), timeoutMs = 1_000) => {
    const bus = await createRedisChangeBus(redis, logger, timeoutMs);
    opened.push(bus);
    return bus;
  };
  const topic = (name: string) => `${name}-${process.pid}-${Math.random().toString(36).slice(2)}`;

  beforeAll(async () => {
    redis = await connectRedis(redisUrl ?? '');
  });
  afterAll(async () => {
    for (const bus of opened) await bus.close();
    redis.disconnect();
  });

  it('resolves a publish once every instance present has applied it, the publisher included', async () => {
    const tokens = topic('tokens');
    const applied: string[] = [];
    const slowReload = (who: string) => async (payload: string) => {
      await new Promise((resolve) => setTimeout(resolve, 40));
      applied.push(`${who} ${payload}`);
    };
    const [first, second] = [await open(), await open()];
    first.subscribe(tokens, slowReload('first'));
    second.subscribe(tokens, slowReload('second'));
    await Promise.all([first.ready(), second.ready()]);
    await first.publish(tokens, '12');
    expect(applied.sort()).toEqual(['first 12', 'second 12']);
  });

  it('answers after the time allowed when an instance does not apply it, naming the instance', async () => {
    const options = topic('options');
    const { logger, lines } = capturedLogger();
    const publisher = await open(logger, 200);
    const stuck = await open();
    publisher.subscribe(options, () => undefined);
    stuck.subscribe(options, () => new Promise<void>(() => undefined));
    await Promise.all([publisher.ready(), stuck.ready()]);
    const started = performance.now();
    await publisher.publish(options, 'SystemName');
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(190);
    expect(elapsed).toBeLessThan(1_500);
    const warnings = lines.map((line) => JSON.parse(line) as { topic: string; instances: string[] }).filter((line) => line.topic === options);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.instances).toEqual([expect.stringMatching(new RegExp(`/${process.pid}/`))]);
  });

  it('does not wait for an instance that has stopped, and an announcement waits for nobody', async () => {
    const users = topic('users');
    const { logger, lines } = capturedLogger();
    const publisher = await open(logger, 3_000);
    const stopped = await open();
    const heard: string[] = [];
    publisher.subscribe(users, (payload) => void heard.push(payload));
    stopped.subscribe(users, () => new Promise<void>(() => undefined));
    await Promise.all([publisher.ready(), stopped.ready()]);
    await stopped.close();
    const started = performance.now();
    await publisher.publish(users, '3');
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(heard).toEqual(['3']);
    await publisher.announce(users, '4');
    await expect.poll(() => heard).toEqual(['3', '4']);
    expect(lines.filter((line) => line.includes(users))).toEqual([]);
  });

  it('applies a bare payload, as an older instance publishes it', async () => {
    const channels = topic('channels');
    const bus = await open();
    const heard: string[] = [];
    bus.subscribe(channels, (payload) => void heard.push(payload));
    await bus.ready();
    await redis.publish(`switchboard:change:${channels}`, '{"id":3}');
    await expect.poll(() => heard).toEqual(['{"id":3}']);
  });
});
