import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerState, listenLocally, seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { callJson } from '../../entry/tasks/testing/task-test-kit.ts';
import { FakeSunoApi } from '../../entry/tasks/suno/testing/fake-suno-api.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

// ModelPrice suno_music 0.1 × 500,000 quota per dollar.
const musicQuota = 50_000;

describe.each(testDatabases())('budgets on drawing and music tasks on $dialect', (database) => {
  let testApp: TestApp;
  let suno: FakeSunoApi;
  let baseUrl: string;

  beforeAll(async () => {
    suno = new FakeSunoApi('suno-budget-key');
    await suno.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    await seedChannel(testApp, { type: 36, key: 'suno-budget-key', baseUrl: suno.baseUrl, models: ['suno_music'] });
  });
  afterAll(async () => {
    await testApp.close();
    await suno.stop();
  });

  it('holds a music submission against the token budget and refuses it once the budget is used, the quota untouched', async () => {
    const user = await createTestUser(testApp, { quota: 1_000_000 });
    const token = await seedToken(testApp, user.id, { remainQuota: 1_000_000 });
    const saved = await testApp.app.inject({
      method: 'PUT',
      url: `/api/budget/tokens/${token.id}`,
      headers: user.headers,
      payload: { budget_quota: Math.round(1.5 * musicQuota), budget_period: 'day' },
    });
    expect(saved.json().success).toBe(true);
    await vi.waitFor(() => expect(testApp.app.relay.budgets.book.token(token.id)).toBeDefined());
    const submit = () =>
      callJson(baseUrl, 'POST', '/suno/submit/music', { authorization: `Bearer ${token.apiKey}` }, { prompt: 'la la', tags: 'pop', title: 'Budget' });

    expect((await submit()).body).toMatchObject({ code: 'success' });
    // Half the budget left: the second song is the one admitted at the edge.
    expect((await submit()).body).toMatchObject({ code: 'success' });
    const refused = await submit();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'token_budget_exceeded', data: null });
    expect(refused.body.message).toContain("This token's day budget is used up");

    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    expect(state.user.quota).toBe(1_000_000 - 2 * musicQuota);
    expect(state.logs).toHaveLength(2);
    expect(testApp.app.relay.budgets.book.token(token.id)?.pending).toBe(0);
  });
});
