import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStatus } from '@switchboard/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config/config.ts';
import { changeTopics } from '../../platform/change-topics.ts';
import { createLogger } from '../../platform/logger.ts';
import { openDependencies, type OpenedDependencies } from '../../platform/open-dependencies.ts';
import { createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../testing/relay-seed.ts';

const redisUrl = process.env.TEST_REDIS_URL;

async function eventually(check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

/** Two instances on one database and one Redis: balances and token changes are coherent across them. */
describe.runIf(redisUrl)('relay caches across instances through Redis', () => {
  const opened: OpenedDependencies[] = [];
  const apps: FastifyInstance[] = [];
  let fake: FakeOpenAIUpstream;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    const sqlite = testDatabases({})[0];
    if (!sqlite) throw new Error('SQLite test database missing');
    const created = await sqlite.create();
    drop = created.drop;
    for (let index = 0; index < 2; index += 1) {
      const config = loadConfig({ SQLITE_PATH: created.sqlitePath, REDIS_CONN_STRING: redisUrl ?? '', SESSION_SECRET: 'shared', LOG_LEVEL: 'silent', SYNC_FREQUENCY: '3600' });
      const dependencies = await openDependencies(config, createLogger('silent'));
      opened.push(dependencies);
      apps.push(await buildApp(dependencies));
    }
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const dependencies of opened) await dependencies.close();
    await drop();
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
      app.inject({ method: 'POST', url: '/v1/chat/completions', headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' }, payload: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }) });

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
