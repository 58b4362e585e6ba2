import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { movableClock, type MovableClock } from '../../entry/api/user/testing/account-test-kit.ts';
import { FakeOpenAIUpstream } from '../../entry/relay/testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, rootUser, sessionHeaders, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { periodWindow } from './budget-period.ts';
import { answerCost, budgetModel, burstTogether, promptTokens } from './testing/budget-burst.ts';

const timeZone = 'Asia/Shanghai';
const plenty = 100_000_000;

describe.each(testDatabases())('spending budgets on one instance on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;
  let clock: MovableClock;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    clock = movableClock();
    testApp = await createTestApp(database, { TZ: timeZone }, clock);
    baseUrl = await listenLocally(testApp);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [budgetModel]: 1 }));
    await seedChannel(testApp, { key: 'budget-upstream', baseUrl: fake.baseUrl, models: [budgetModel] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  const call = (method: 'GET' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) =>
    testApp.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

  async function budgetedToken(budget: number, period = 'day') {
    const user = await createTestUser(testApp, { quota: plenty });
    const token = await seedToken(testApp, user.id, { remainQuota: plenty });
    const saved = await call('PUT', `/api/budget/tokens/${token.id}`, user.headers, { budget_quota: budget, budget_period: period });
    expect(saved.json()).toMatchObject({ success: true, data: { budget_quota: budget, budget_period: period, period_used: 0 } });
    // The relay's book follows over the change bus (a reload in the background).
    await vi.waitFor(() => expect(testApp.app.relay.budgets.book.token(token.id)?.limit).toBe(budget));
    return { user, token };
  }

  const chat = (apiKey: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: budgetModel, messages: [{ role: 'user', content: 'Hello' }] }),
    });

  it('lets 300 simultaneous requests spend at most one answer beyond a token budget', async () => {
    fake.usage = { prompt: promptTokens, completion: answerCost - promptTokens };
    const budget = Math.round(10.5 * answerCost);
    const { user, token } = await budgetedToken(budget);
    const statuses = await burstTogether(fake, [baseUrl], token.apiKey, 300);
    const succeeded = statuses.filter((status) => status === 'ok').length;
    for (const status of statuses.filter((each) => each !== 'ok')) expect(status).toBe('429 token_budget_exceeded');

    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    const charged = state.logs.reduce((sum, log) => sum + log.quota, 0);
    expect(charged).toBe(succeeded * answerCost);
    // Every answer the budget covers went through, and at most one beyond it.
    expect(succeeded).toBeGreaterThanOrEqual(Math.floor(budget / answerCost));
    expect(charged).toBeLessThanOrEqual(budget + answerCost);
    // Refused requests gave their quota hold back to the unit; no budget hold is left in flight.
    expect(state.user.quota).toBe(plenty - charged);
    expect(state.token.remain_quota).toBe(plenty - charged);
    expect(testApp.app.relay.budgets.book.token(token.id)?.pending).toBe(0);
    const listed = (await call('GET', '/api/budget/tokens', user.headers)).json();
    expect(listed.data).toEqual([expect.objectContaining({ id: token.id, budget_quota: budget, budget_period: 'day', period_used: charged })]);
  });

  it('lets 200 simultaneous requests on two keys spend at most one answer beyond a user budget set by an administrator', async () => {
    fake.usage = { prompt: promptTokens, completion: answerCost - promptTokens };
    const budget = Math.round(6.5 * answerCost);
    const user = await createTestUser(testApp, { quota: plenty });
    const root = await rootUser(testApp);
    const saved = await call('PUT', `/api/budget/users/${user.id}`, root.headers, { budget_quota: budget, budget_period: 'month' });
    expect(saved.json()).toMatchObject({ success: true, data: { budget_quota: budget, budget_period: 'month' } });
    await vi.waitFor(() => expect(testApp.app.relay.budgets.book.user(user.id)?.limit).toBe(budget));
    const tokens = [await seedToken(testApp, user.id), await seedToken(testApp, user.id)];
    const statuses = (await Promise.all(tokens.map((token) => burstTogether(fake, [baseUrl], token.apiKey, 100)))).flat();
    const succeeded = statuses.filter((status) => status === 'ok').length;
    for (const status of statuses.filter((each) => each !== 'ok')) expect(status).toBe('429 user_budget_exceeded');
    expect(succeeded * answerCost).toBeLessThanOrEqual(budget + answerCost);
    expect(succeeded).toBeGreaterThanOrEqual(Math.floor(budget / answerCost));
    await testApp.app.relay.flusher.flush();
    const self = (await call('GET', '/api/budget/self', user.headers)).json();
    expect(self.data).toMatchObject({ budget_quota: budget, budget_period: 'month', period_used: succeeded * answerCost });
  });

  it('starts a day budget again at midnight in the server time zone', async () => {
    fake.usage = { prompt: promptTokens, completion: answerCost - promptTokens };
    const { user, token } = await budgetedToken(Math.round(1.5 * answerCost));
    expect((await chat(token.apiKey)).statusCode).toBe(200);
    // 1.5 budgets: the second answer is admitted at the edge, the third is refused.
    expect((await chat(token.apiKey)).statusCode).toBe(200);
    const refused = await chat(token.apiKey);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatchObject({ code: 'token_budget_exceeded', type: 'insufficient_quota' });
    expect(refused.json().error.message).toContain(timeZone);

    const today = periodWindow('day', clock.now(), timeZone);
    clock.advance(Math.floor((today.end - clock.now()) / 1000) - 1);
    expect((await chat(token.apiKey)).statusCode).toBe(429);
    clock.advance(2);
    expect((await chat(token.apiKey)).statusCode).toBe(200);
    await testApp.app.relay.flusher.flush();
    // A day later the first session has expired: a fresh one reads the new period.
    const listed = (await call('GET', '/api/budget/tokens', await sessionHeaders(testApp, user.id))).json();
    expect(listed.data[0]).toMatchObject({ id: token.id, period_used: answerCost, period_start: Math.floor(today.end / 1000) });
  });

  it('refuses bad budget input without changing anything, and hides other users’ tokens', async () => {
    const { user, token } = await budgetedToken(5000, 'week');
    for (const payload of [
      { budget_quota: -1, budget_period: 'day' },
      { budget_quota: 100, budget_period: 'year' },
      { budget_quota: 100, budget_period: '' },
      { budget_quota: 1.5, budget_period: 'day' },
    ]) {
      const answer = await call('PUT', `/api/budget/tokens/${token.id}`, user.headers, payload);
      expect(answer.statusCode).toBe(400);
      expect(answer.json().success).toBe(false);
    }
    const stranger = await createTestUser(testApp, { quota: plenty });
    expect((await call('PUT', `/api/budget/tokens/${token.id}`, stranger.headers, { budget_quota: 1, budget_period: 'day' })).statusCode).toBe(404);
    const listed = (await call('GET', '/api/budget/tokens', user.headers)).json();
    expect(listed.data[0]).toMatchObject({ budget_quota: 5000, budget_period: 'week' });
    // An administrator cannot set the budget of another administrator.
    const admin = await createTestUser(testApp, { role: 10 });
    const otherAdmin = await createTestUser(testApp, { role: 10 });
    const refused = (await call('PUT', `/api/budget/users/${otherAdmin.id}`, admin.headers, { budget_quota: 1, budget_period: 'day' })).json();
    expect(refused.success).toBe(false);
    // Cleared: no budget, requests pass again.
    const cleared = await call('PUT', `/api/budget/tokens/${token.id}`, user.headers, { budget_quota: 0, budget_period: '' });
    expect(cleared.json().data).toMatchObject({ budget_quota: 0, budget_period: '' });
    await vi.waitFor(() => expect(testApp.app.relay.budgets.book.token(token.id)).toBeUndefined());
  });
});
