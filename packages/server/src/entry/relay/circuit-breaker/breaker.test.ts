import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { seedChannel, seedToken } from '../testing/relay-seed.ts';

const metricsToken = 'breaker-metrics-token';

/** Time stands still until the test moves it: cool-downs pass without sleeping. */
function handClock(): Clock & { advance(ms: number): void } {
  let ms = Date.now();
  return {
    now: () => ms,
    unixSeconds: () => Math.floor(ms / 1000),
    advance: (by) => {
      ms += by;
    },
  };
}

/**
 * A primary channel (priority 10) whose fake upstream fails, a healthy backup (priority 0) and
 * RetryTimes = 1: every caller still gets an answer, and the breaker decides who serves it.
 */
describe.each(testDatabases())('channel circuit breaker on $dialect', (database) => {
  const clock = handClock();
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let root: TestUser;
  let apiKey: string;
  let flaky: number;
  let steady: number;

  const chat = async (model = 'gpt-4o') =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
  const breakers = async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/channel/breaker', headers: root.headers });
    expect(response.json().success).toBe(true);
    return response.json().data as Array<{ channel_id: number; state: string; open_until: number; open_keys: number; key_count: number }>;
  };
  const breakerOf = async (id: number) => (await breakers()).find((view) => view.channel_id === id);
  const statusOf = async (id: number) =>
    (await testApp.context.database.db.selectFrom('channels').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database, { METRICS_TOKEN: metricsToken }, clock);
    root = await rootUser(testApp);
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    apiKey = (await seedToken(testApp, user.id, { remainQuota: 10_000_000 })).apiKey;
    const options = testApp.context.options;
    await options.set('RetryTimes', '1');
    // Auto-disable on: the breaker, not disabling, must deal with transient errors.
    await options.set('AutomaticDisableChannelEnabled', 'true');
    await options.set('ChannelBreakerConsecutiveFailures', '3');
    await options.set('ChannelBreakerCooldownSeconds', '30');
    flaky = await seedChannel(testApp, { key: 'flaky', baseUrl: fake.baseUrl, models: ['gpt-4o'], priority: 10 });
    steady = await seedChannel(testApp, { key: 'steady', baseUrl: fake.baseUrl, models: ['gpt-4o'], priority: 0 });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('never disables a channel for a single 500', async () => {
    fake.behave('flaky', 'status-500');
    expect((await chat()).statusCode).toBe(200);
    await testApp.app.relay.health.settled();
    expect(fake.requestsFor('flaky')).toHaveLength(1);
    expect(await statusOf(flaky)).toBe(ChannelStatus.enabled);
    expect(await breakerOf(flaky)).toBeUndefined();
  });

  it('opens after consecutive failures, shifts traffic to the healthy channel, and closes on the half-open probe', async () => {
    // Two more failures make three in a row: the breaker opens.
    expect((await chat()).statusCode).toBe(200);
    expect((await chat()).statusCode).toBe(200);
    expect(fake.requestsFor('flaky')).toHaveLength(3);
    const opened = await breakerOf(flaky);
    expect(opened).toMatchObject({ state: 'open', open_keys: 1, key_count: 1, open_until: Math.ceil((clock.now() + 30_000) / 1000) });

    // Open: the primary is skipped, the backup answers at once.
    const steadyBefore = fake.requestsFor('steady').length;
    for (let index = 0; index < 5; index += 1) expect((await chat()).statusCode).toBe(200);
    expect(fake.requestsFor('flaky')).toHaveLength(3);
    expect(fake.requestsFor('steady')).toHaveLength(steadyBefore + 5);

    const scraped = await testApp.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${metricsToken}` } });
    expect(scraped.body).toContain(`switchboard_channel_breaker_state{channel_id="${flaky}"} 1`);
    expect(scraped.body).toMatch(/switchboard_channel_breaker_opened_total 1\b/);

    // Cool-down over, still failing: the one probe fails and the breaker opens again.
    clock.advance(30_000);
    expect((await breakerOf(flaky))?.state).toBe('half-open');
    expect((await chat()).statusCode).toBe(200);
    expect(fake.requestsFor('flaky')).toHaveLength(4);
    expect(await breakerOf(flaky)).toMatchObject({ state: 'open', open_until: Math.ceil((clock.now() + 30_000) / 1000) });
    expect((await chat()).statusCode).toBe(200);
    expect(fake.requestsFor('flaky')).toHaveLength(4);

    // The upstream recovers: the next probe closes the breaker and the primary serves again.
    fake.behave('flaky', 'ok');
    clock.advance(30_000);
    expect((await chat()).statusCode).toBe(200);
    expect(fake.requestsFor('flaky')).toHaveLength(5);
    expect(await breakerOf(flaky)).toBeUndefined();
    expect((await chat()).statusCode).toBe(200);
    expect(fake.requestsFor('flaky')).toHaveLength(6);

    await testApp.app.relay.health.settled();
    expect(await statusOf(flaky)).toBe(ChannelStatus.enabled);
    expect(await statusOf(steady)).toBe(ChannelStatus.enabled);
  });

  it('lets half-open through one probe at a time', async () => {
    fake.behave('flaky', 'status-500');
    for (let index = 0; index < 3; index += 1) await chat();
    expect((await breakerOf(flaky))?.state).toBe('open');
    clock.advance(30_000);
    const flakyBefore = fake.requestsFor('flaky').length;
    // Hold every answer until all requests are in: only one of them may have gone to the primary.
    const held = Promise.withResolvers<void>();
    const allIn = Promise.withResolvers<void>();
    let arrived = 0;
    fake.beforeAnswer = () => {
      arrived += 1;
      if (arrived === 6) allIn.resolve();
      return held.promise;
    };
    const pending = Array.from({ length: 6 }, () => chat());
    await allIn.promise;
    expect(fake.requestsFor('flaky')).toHaveLength(flakyBefore + 1);
    fake.beforeAnswer = undefined;
    held.resolve();
    for (const response of await Promise.all(pending)) expect(response.statusCode).toBe(200);
    expect((await breakerOf(flaky))?.state).toBe('open');
    // Leave the primary healthy and its breaker closed for the next case.
    fake.behave('flaky', 'ok');
    clock.advance(30_000);
    await chat();
    expect(await breakerOf(flaky)).toBeUndefined();
  });

  it('falls back to an open channel when nothing else is left', async () => {
    fake.behave('lonely', 'status-500');
    const lonely = await seedChannel(testApp, { key: 'lonely', baseUrl: fake.baseUrl, models: ['lonely-model'] });
    await testApp.context.options.set(
      'ModelRatio',
      JSON.stringify({ ...testApp.context.options.getJson<Record<string, number>>('ModelRatio'), 'lonely-model': 1 }),
    );
    for (let index = 0; index < 3; index += 1) expect((await chat('lonely-model')).statusCode).toBe(500);
    expect((await breakerOf(lonely))?.state).toBe('open');
    // Refusing outright would turn a partial outage into a total one: the last channel is still tried.
    fake.behave('lonely', 'ok');
    expect((await chat('lonely-model')).statusCode).toBe(200);
    expect(fake.requestsFor('lonely')).toHaveLength(4);
    expect(await breakerOf(lonely)).toBeUndefined();
  });

  it('keeps a breaker per key of a multi-key channel and skips only the failing key', async () => {
    fake.behave('key-bad', 'status-500');
    const multi = await seedChannel(testApp, { key: 'key-bad\nkey-good', baseUrl: fake.baseUrl, models: ['multi-model'] });
    await testApp.context.options.set(
      'ModelRatio',
      JSON.stringify({ ...testApp.context.options.getJson<Record<string, number>>('ModelRatio'), 'multi-model': 1 }),
    );
    // Keys are drawn at random: call until the bad key has failed three times.
    for (let index = 0; index < 200 && fake.requestsFor('key-bad').length < 3; index += 1) await chat('multi-model');
    expect(fake.requestsFor('key-bad')).toHaveLength(3);
    expect(await breakerOf(multi)).toMatchObject({ state: 'closed', key_count: 2, open_keys: 1 });
    for (let index = 0; index < 10; index += 1) expect((await chat('multi-model')).statusCode).toBe(200);
    expect(fake.requestsFor('key-bad')).toHaveLength(3);
  });

  it('is answered to administrators only', async () => {
    const user = await createTestUser(testApp);
    const response = await testApp.app.inject({ method: 'GET', url: '/api/channel/breaker', headers: user.headers });
    expect(response.json().success).toBe(false);
  });
});
