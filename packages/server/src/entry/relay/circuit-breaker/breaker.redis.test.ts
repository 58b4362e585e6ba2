import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../core/platform/clock.ts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { startTwoInstances, type TwoInstances } from '../../../testing/two-instances.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../testing/relay-seed.ts';
import { ChannelBreakers } from './channel-breakers.ts';
import { shareBreakersThroughRedis } from './redis-breaker-sync.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** Ids far from the small ones other suites' fresh databases use, since they may share this Redis. */
const flakyId = 910_001;
const probedId = 910_002;

const asTestApp = (app: FastifyInstance) => ({ app, context: app.switchboard.context }) as unknown as TestApp;

/** Resolves on the next breaker change the app hears over the bus (its breakers hear it first). */
function nextBreakerChange(app: FastifyInstance): Promise<void> {
  const heard = Promise.withResolvers<void>();
  app.switchboard.context.bus.subscribe(changeTopics.breakers, () => heard.resolve());
  return heard.promise;
}

/** Two instances on one database and one Redis: a breaker opened on one is open on both; one probe in the cluster. */
describe.runIf(redisUrl)('channel circuit breakers across instances through Redis', () => {
  let instances: TwoInstances;
  let first: FastifyInstance;
  let second: FastifyInstance;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    instances = await startTwoInstances(redisUrl ?? '');
    [first, second] = instances.apps;
  });
  afterAll(async () => {
    await first.switchboard.context.redis?.hdel('switchboard:breaker:open', `${flakyId}:0`, `${probedId}:0`);
    await first.switchboard.context.redis?.del(`switchboard:breaker:probe:${probedId}:0`);
    await instances.close();
    await fake.stop();
  });

  it('skips a channel on every instance once one of them opened its breaker', async () => {
    const userId = (await createTestUser(asTestApp(first), { quota: 10_000_000 })).id;
    const token = await seedToken(asTestApp(first), userId, { remainQuota: 1_000_000 });
    const seeded = await seedChannel(asTestApp(first), { key: 'shared-flaky', baseUrl: fake.baseUrl, models: ['gpt-4o'], priority: 10 });
    const { db } = first.switchboard.context.database;
    await db.updateTable('channels').set({ id: flakyId }).where('id', '=', seeded).execute();
    await db.updateTable('abilities').set({ channel_id: flakyId }).where('channel_id', '=', seeded).execute();
    await seedChannel(asTestApp(first), { key: 'shared-steady', baseUrl: fake.baseUrl, models: ['gpt-4o'] });
    for (const app of [first, second]) {
      await app.switchboard.context.options.set('RetryTimes', '1');
      await app.switchboard.context.options.set('ChannelBreakerConsecutiveFailures', '2');
      await app.relay.channels.reload();
    }
    const chat = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });

    fake.behave('shared-flaky', 'status-500');
    const heard = nextBreakerChange(second);
    expect((await chat(first)).statusCode).toBe(200);
    expect((await chat(first)).statusCode).toBe(200);
    expect(fake.requestsFor('shared-flaky')).toHaveLength(2);
    await heard;
    const keys = (id: number) => first.relay.channels.get(id)?.keys.length;
    expect(second.relay.breakers.snapshot(keys)).toEqual([expect.objectContaining({ channel_id: flakyId, state: 'open' })]);

    // The second instance never saw a failure, yet skips the channel too.
    for (let index = 0; index < 3; index += 1) expect((await chat(second)).statusCode).toBe(200);
    expect(fake.requestsFor('shared-flaky')).toHaveLength(2);
    expect(fake.requestsFor('shared-steady')).toHaveLength(5);
    // An instance starting later reads the open circuit from Redis.
    expect(await first.switchboard.context.redis?.hget('switchboard:breaker:open', `${flakyId}:0`)).toMatch(/^\d+$/);
  });

  it('lets a single probe through in the whole cluster', async () => {
    let ms = Date.now();
    const clock: Clock = { now: () => ms, unixSeconds: () => Math.floor(ms / 1000) };
    const shared = [first, second].map((app) => ({ app, breakers: new ChannelBreakers({ options: app.switchboard.context.options, clock }) }));
    for (const { app, breakers } of shared) {
      const { redis, bus, logger } = app.switchboard.context;
      if (!redis) throw new Error('Redis expected');
      await shareBreakersThroughRedis(breakers, redis, bus, clock, logger);
    }
    const [one, two] = shared;
    if (!one || !two) throw new Error('two instances expected');
    const channel = { id: probedId, keys: ['only-key'] };
    const heard = nextBreakerChange(second);
    one.breakers.record(channel, 0, 'failure');
    one.breakers.record(channel, 0, 'failure');
    await heard;
    expect(two.breakers.usable(channel)).toBe(false);
    ms += 30_000;
    expect(two.breakers.usable(channel)).toBe(true);
    expect(await one.breakers.admit(channel, 0)).toBe(true);
    expect(await two.breakers.admit(channel, 0)).toBe(false);
    // The loser counts the circuit as probed: it comes back to it only as the last resort.
    expect(two.breakers.usable(channel)).toBe(false);
  });
});
