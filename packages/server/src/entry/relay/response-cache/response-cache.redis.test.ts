import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { startTwoInstances, type TwoInstances } from '../../../testing/two-instances.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../testing/relay-seed.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/** With REDIS_CONN_STRING the cache is shared: a miss on one instance is a hit on the other, and a purge empties it for both. */
describe.runIf(redisUrl)('the response cache shared through Redis', () => {
  let instances: TwoInstances;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    instances = await startTwoInstances(redisUrl ?? '');
  });
  afterAll(async () => {
    await instances.close();
    await fake.stop();
  });

  it('serves on instance B the answer instance A stored, without the upstream', async () => {
    const [first, second] = instances.apps;
    const asTestApp = (app: FastifyInstance) => ({ app, context: app.switchboard.context }) as unknown as TestApp;
    const user = await createTestUser(asTestApp(first), { quota: 100_000_000 });
    const token = await seedToken(asTestApp(first), user.id);
    await seedChannel(asTestApp(first), { key: 'redis-cache-upstream', baseUrl: fake.baseUrl, models: ['gpt-4o'] });
    await second.relay.channels.reload();
    await first.switchboard.context.options.set('ResponseCacheRules', JSON.stringify([{ model: 'gpt-4o', ttl: 120, hit_ratio: 0.1 }]));
    await second.switchboard.context.options.reload();
    const chat = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        payload: { model: 'gpt-4o', messages: [{ role: 'user', content: `shared ${process.pid}` }] },
      });
    await first.relay.responseCache.purge();
    const miss = await chat(first);
    expect(miss.headers['x-switchboard-cache']).toBe('miss');
    const hit = await chat(second);
    expect(hit.headers['x-switchboard-cache']).toBe('hit');
    expect(hit.body).toBe(miss.body);
    expect(fake.requestsFor('redis-cache-upstream')).toHaveLength(1);
    expect(await second.relay.responseCache.purge()).toBeGreaterThan(0);
    expect((await chat(first)).headers['x-switchboard-cache']).toBe('miss');
    expect(fake.requestsFor('redis-cache-upstream')).toHaveLength(2);
  });
});
