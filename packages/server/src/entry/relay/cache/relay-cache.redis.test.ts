import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStatus } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../testing/relay-seed.ts';
import { startTwoInstances, type TwoInstances } from '../../../testing/two-instances.ts';

const redisUrl = process.env.TEST_REDIS_URL;

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Two instances on one database and one Redis: balances and token changes are coherent across them. */
describe.runIf(redisUrl)('relay caches across instances through Redis', () => {
  let instances: TwoInstances;
  let apps: readonly FastifyInstance[] = [];
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    instances = await startTwoInstances(redisUrl ?? '');
    apps = instances.apps;
  });
  afterAll(async () => {
    await instances.close();
    await fake.stop();
  });

  it('moves a balance charged on one instance on the other, and refuses a disabled token everywhere', async () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('apps missing');
    const asTestApp = (app: FastifyInstance) => ({ app, context: app.switchboard.context }) as unknown as TestApp;
    const userId = (await createTestUser(asTestApp(first), { quota: 1_000_000 })).id;
    const token = await seedToken(asTestApp(first), userId, { remainQuota: 100_000 });
    await seedChannel(asTestApp(first), { key: 'shared-upstream', baseUrl: fake.baseUrl, models: ['gpt-4o'] });
    await second.relay.channels.reload();
    const chat = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      });

    expect((await chat(second)).statusCode).toBe(200);
    expect((await chat(first)).statusCode).toBe(200);
    await first.relay.flusher.flush();
    // (12 + 6 × 4) × 1.25 = 45 per request; the second instance learns of the first one's charge.
    await eventually(() => second.relay.tokens.getById(token.id)?.remainQuota === 100_000 - 90);
    expect(second.relay.tokens.getById(token.id)?.remainQuota).toBe(100_000 - 90);

    await first.switchboard.context.database.db.updateTable('tokens').set({ status: TokenStatus.disabled }).where('id', '=', token.id).execute();
    await first.switchboard.context.bus.publish(changeTopics.tokens, String(token.id));
    await eventually(() => second.relay.tokens.getById(token.id)?.status === TokenStatus.disabled);
    expect((await chat(second)).statusCode).toBe(401);
  });
});
