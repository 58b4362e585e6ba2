import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from './testing/relay-seed.ts';

const simultaneous = 500;
const tokenQuota = 10_000;
// Ratio 1 and completion ratio 1: the hold is (500-token floor + max_tokens 50) = 550, the cost 480 + 50 = 530.
const hold = 550;
const cost = 530;

describe.each(testDatabases())('500 simultaneous requests on a limited token on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: 480, completion: 50 };
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'busy-model': 1 }));
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('never overspends by more than one hold and charges exactly what the logs say', async () => {
    const userQuota = 1_000_000;
    const userId = (await createTestUser(testApp, { quota: userQuota })).id;
    const token = await seedToken(testApp, userId, { remainQuota: tokenQuota });
    const channelId = await seedChannel(testApp, { key: 'busy-upstream', baseUrl: fake.baseUrl, models: ['busy-model'] });
    const body = JSON.stringify({ model: 'busy-model', max_tokens: 50, messages: [{ role: 'user', content: 'Hello' }] });
    const statuses = await Promise.all(
      Array.from({ length: simultaneous }, async () => {
        const response = await fetch(`${baseUrl}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' }, body });
        const answer = (await response.json()) as { error?: { code: string } };
        return response.status === 200 ? 'ok' : `${response.status} ${answer.error?.code ?? ''}`;
      }),
    );
    const succeeded = statuses.filter((status) => status === 'ok').length;
    const refused = statuses.filter((status) => status !== 'ok');
    expect(succeeded).toBeGreaterThan(0);
    // Refusals are quota refusals (token exhausted or not enough left for the hold), nothing else.
    expect(refused.length).toBeGreaterThan(0);
    for (const status of refused) expect(['401 token_quota_exhausted', '403 pre_consume_token_quota_failed']).toContain(status);

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const charged = state.logs.reduce((sum, log) => sum + log.quota, 0);
    expect(state.logs).toHaveLength(succeeded);
    expect(charged).toBe(succeeded * cost);
    expect(charged).toBeLessThanOrEqual(tokenQuota + hold);
    expect(state.token.used_quota).toBe(charged);
    expect(state.token.remain_quota).toBe(tokenQuota - charged);
    expect(state.token.remain_quota).toBeGreaterThanOrEqual(-hold);
    expect(state.user.used_quota).toBe(charged);
    expect(state.user.quota).toBe(userQuota - charged);
    expect(state.user.request_count).toBe(succeeded);
    expect(state.channels[0]?.used_quota).toBe(charged);
    // Memory agrees with the database after the flush.
    expect(testApp.app.relay.tokens.getById(token.id)?.remainQuota).toBe(state.token.remain_quota);
  });
});
