import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { ledgerState, seedChannel, seedToken } from './testing/relay-seed.ts';

const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');
const model = 'journal-model';

/**
 * RefuseWhenJournalFailing: while the quota journal cannot be written (a full disk), an operator who
 * chose it gets paid calls refused with a 503 that moves nothing, instead of answers whose charges a
 * crash would lose; with the setting off (the default) calls go on.
 */
describe.each(sqlite)('paid calls while the quota journal cannot be written on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1 }));
    await seedChannel(testApp, { key: 'journal-upstream', baseUrl: fake.baseUrl, models: [model] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  const call = (apiKey: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: { model, messages: [{ role: 'user', content: 'Hello' }] },
    });

  it('goes on by default, and refuses with 503 and no charge when the operator asked for it', async () => {
    const user = await createTestUser(testApp, { quota: 10_000_000 });
    const token = await seedToken(testApp, user.id, { remainQuota: 1_000_000 });
    const durable = vi.spyOn(testApp.app.relay, 'chargesDurable').mockReturnValue(false);
    try {
      expect((await call(token.apiKey)).statusCode).toBe(200);
      await testApp.context.options.set('RefuseWhenJournalFailing', 'true');
      const upstreamBefore = fake.requestsFor('journal-upstream').length;
      const refused = await call(token.apiKey);
      expect(refused.statusCode).toBe(503);
      expect(refused.json()).toMatchObject({ error: { code: 'charges_not_durable' } });
      expect(fake.requestsFor('journal-upstream').length).toBe(upstreamBefore);
      // Writable again: served at once.
      durable.mockReturnValue(true);
      expect((await call(token.apiKey)).statusCode).toBe(200);
      const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
      expect(state.logs).toHaveLength(2);
    } finally {
      durable.mockRestore();
      await testApp.context.options.set('RefuseWhenJournalFailing', 'false');
    }
  });
});
