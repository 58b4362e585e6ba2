import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FakeOpenAIUpstream } from '../../entry/relay/testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestUser, sessionHeaders, type TestApp } from '../../testing/test-app.ts';
import { startTwoInstances, type TwoInstances } from '../../testing/two-instances.ts';
import { answerCost, budgetModel, burstTogether, promptTokens } from './testing/budget-burst.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const plenty = 100_000_000;

/** Two instances on one database and one Redis: a budget holds for both together as it would on one. */
describe.runIf(redisUrl)('spending budgets shared by two instances through Redis', () => {
  let instances: TwoInstances;
  let apps: readonly FastifyInstance[] = [];
  let baseUrls: string[] = [];
  let fake: FakeOpenAIUpstream;
  const asTestApp = (app: FastifyInstance) => ({ app, context: app.switchboard.context }) as unknown as TestApp;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: promptTokens, completion: answerCost - promptTokens };
    await fake.start();
    instances = await startTwoInstances(redisUrl ?? '');
    apps = instances.apps;
    const [first] = apps;
    if (!first) throw new Error('apps missing');
    // Each run starts on a fresh database whose ids repeat: forget what earlier runs left in Redis.
    const redis = first.switchboard.context.redis;
    const stale = (await redis?.keys('switchboard:budget:*')) ?? [];
    if (stale.length > 0) await redis?.del(...stale);
    const { options } = first.switchboard.context;
    await options.set('ModelRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelRatio'), [budgetModel]: 1 }));
    await seedChannel(asTestApp(first), { key: 'shared-budget-upstream', baseUrl: fake.baseUrl, models: [budgetModel] });
    for (const app of apps) {
      await app.relay.channels.reload();
      await app.listen({ port: 0, host: '127.0.0.1' });
    }
    baseUrls = apps.map((app) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
    await vi.waitFor(() =>
      expect(apps.every((app) => app.switchboard.context.options.getJson<Record<string, number>>('ModelRatio')[budgetModel] === 1)).toBe(true),
    );
  });
  afterAll(async () => {
    await instances.close();
    await fake.stop();
  });

  it('lets 400 simultaneous requests over both instances spend at most one answer beyond a token budget', async () => {
    const [first, second] = apps;
    if (!first || !second) throw new Error('apps missing');
    const user = await createTestUser(asTestApp(first), { quota: plenty });
    const token = await seedToken(asTestApp(first), user.id, { remainQuota: plenty });
    const budget = Math.round(12.5 * answerCost);
    const saved = await first.inject({
      method: 'PUT',
      url: `/api/budget/tokens/${token.id}`,
      headers: user.headers,
      payload: { budget_quota: budget, budget_period: 'week' },
    });
    expect(saved.json().success).toBe(true);
    // The change reaches the other instance over the change bus.
    await vi.waitFor(() => expect(second.relay.budgets.book.token(token.id)?.limit).toBe(budget));

    const statuses = await burstTogether(fake, baseUrls, token.apiKey, 400);
    const succeeded = statuses.filter((status) => status === 'ok').length;
    for (const status of statuses.filter((each) => each !== 'ok')) expect(status).toBe('429 token_budget_exceeded');
    // Each instance served half of the burst, and together they admitted no more than one answer beyond the
    // budget: a budget kept per instance would have let each admit a budget's worth, twice the total. Which
    // instance admitted them is a race (under load one of them can take every admission), so it is not asserted.
    expect(statuses).toHaveLength(400);
    expect(succeeded * answerCost).toBeLessThanOrEqual(budget + answerCost);
    expect(succeeded).toBeGreaterThanOrEqual(Math.floor(budget / answerCost));

    for (const app of apps) await app.relay.flusher.flush();
    const row = await first.switchboard.context.database.db.selectFrom('tokens').select(['used_quota']).where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(row.used_quota).toBe(succeeded * answerCost);
    // The shared counter agrees with the database, and no hold is left in it.
    const key = (await first.switchboard.context.redis?.keys(`switchboard:budget:token:${token.id}:*`))?.find((name) => !name.endsWith(':holds')) ?? '';
    await vi.waitFor(async () => expect(await first.switchboard.context.redis?.hgetall(key)).toEqual({ used: String(succeeded * answerCost), pending: '0' }));
    // The console on either instance shows the week's use.
    const listed = (await second.inject({ method: 'GET', url: '/api/budget/tokens', headers: await sessionHeaders(asTestApp(second), user.id) })).json();
    expect(listed.data[0]).toMatchObject({ id: token.id, budget_quota: budget, period_used: succeeded * answerCost });

    // Cleared and set again, the budget counts from zero on both instances (the shared count is dropped).
    const put = (body: object) => first.inject({ method: 'PUT', url: `/api/budget/tokens/${token.id}`, headers: user.headers, payload: body });
    expect((await put({ budget_quota: 0, budget_period: '' })).json().success).toBe(true);
    expect((await put({ budget_quota: budget, budget_period: 'week' })).json().data).toMatchObject({ period_used: 0 });
    await vi.waitFor(() => expect(second.relay.budgets.book.token(token.id)?.base).toBe(succeeded * answerCost));
    const again = await second.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: budgetModel, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(again.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await first.switchboard.context.redis?.hget(key, 'used')).toBe(String(answerCost)));
  });
});
