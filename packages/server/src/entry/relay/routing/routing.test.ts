import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../../core/platform/clock.ts';
import { callApi } from '../../api/user/testing/account-test-kit.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { listenLocally, seedChannel, seedToken } from '../testing/relay-seed.ts';

/** The app's clock: real time plus what the fake upstreams "spent" thinking, so a slow channel costs no real waiting. */
function steppingClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    unixSeconds: () => Math.floor((Date.now() + offset) / 1000),
    advance: (ms: number) => {
      offset += ms;
    },
  };
}

describe.each(testDatabases())('routing inside a priority tier on $dialect', (database) => {
  const clock = steppingClock();
  let testApp: TestApp;
  let root: TestUser;
  let baseUrl: string;
  let apiKey: string;
  let first: FakeOpenAIUpstream;
  let second: FakeOpenAIUpstream;

  beforeAll(async () => {
    first = new FakeOpenAIUpstream();
    second = new FakeOpenAIUpstream();
    await Promise.all([first.start(), second.start()]);
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    baseUrl = await listenLocally(testApp);
    const userId = (await createTestUser(testApp, { quota: 100_000_000 })).id;
    apiKey = (await seedToken(testApp, userId, { unlimited: true, remainQuota: 100_000_000 })).apiKey;
    await testApp.context.options.set('SelfUseModeEnabled', 'true');
  });
  afterAll(async () => {
    await testApp.close();
    await Promise.all([first.stop(), second.stop()]);
  });
  beforeEach(() => {
    first.requests.length = 0;
    second.requests.length = 0;
    first.beforeAnswer = undefined;
    second.beforeAnswer = undefined;
  });

  const setStrategy = (value: unknown, language?: 'en') =>
    callApi(testApp, 'PUT', '/api/option/', { headers: root.headers, body: { key: 'ChannelRoutingStrategy', value }, ...(language ? { language } : {}) });

  const chat = (model: string) =>
    fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 8, messages: [{ role: 'user', content: 'Hello' }] }),
    });

  const received = () => first.requests.length + second.requests.length;

  /** Resolves once the fakes together have received `count` requests. */
  const untilReceived = async (count: number) => {
    while (received() < count) await new Promise((resolve) => setImmediate(resolve));
  };

  it('refuses a malformed strategy in the caller language, keeps the stored one, and accepts a valid one', async () => {
    const before = testApp.context.options.get('ChannelRoutingStrategy');
    for (const bad of ['{"default": "fastest"}', '{"groups": {"vip": "random"}}', '{"default": "weighted", "extra": 1}', '["weighted"]', 'not json']) {
      const answer = await setStrategy(bad, 'en');
      expect(answer.body.success, bad).toBe(false);
      expect(String(answer.body.message)).toContain('ChannelRoutingStrategy');
    }
    const chinese = await setStrategy('{"default": "fastest"}');
    expect(String(chinese.body.message)).toContain('格式不正确');
    expect(testApp.context.options.get('ChannelRoutingStrategy')).toBe(before);
    const good = await setStrategy('{"default": "weighted", "groups": {"vip": "least-busy"}}');
    expect(good.body.success).toBe(true);
    expect(testApp.app.relay.router.strategyOf('vip')).toBe('least-busy');
    expect(testApp.app.relay.router.strategyOf('default')).toBe('weighted');
  });

  it("takes RPM/TPM ceilings in a channel's setting and new-api's channel_info, refusing bad ceilings and changing nothing", async () => {
    const channel = { type: 1, name: 'ceilings', key: 'sk-ceilings', base_url: first.baseUrl, models: 'ceiling-model', group: 'default' };
    const refused = await callApi(testApp, 'POST', '/api/channel/', {
      headers: root.headers,
      language: 'en',
      body: { mode: 'single', channel: { ...channel, setting: '{"key_rpm_limit": -1}' } },
    });
    expect(refused.body.success).toBe(false);
    expect(String(refused.body.message)).toContain('key_rpm_limit');
    const info = { is_multi_key: true, multi_key_mode: 'polling', multi_key_polling_index: 0 };
    const created = await callApi(testApp, 'POST', '/api/channel/', {
      headers: root.headers,
      body: { mode: 'single', channel: { ...channel, setting: '{"rpm_limit": 5}', channel_info: info } },
    });
    expect(created.body.success).toBe(true);
    const rows = await testApp.context.database.db.selectFrom('channels').select(['id', 'setting', 'channel_info']).where('name', '=', 'ceilings').execute();
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]?.channel_info ?? '{}')).toEqual(info);
    const shown = await callApi(testApp, 'GET', `/api/channel/${rows[0]?.id}`, { headers: root.headers });
    expect((shown.body.data as { channel_info: unknown }).channel_info).toEqual(info);
    await testApp.app.relay.channels.reload();
    expect(testApp.app.relay.channels.get(rows[0]?.id ?? 0)?.usageLimits).toEqual({ rpm: 5, tpm: 0, keyRpm: 0, keyTpm: 0 });
  });

  it('least-busy sends a burst to the idle channel while the other holds a slow answer', async () => {
    expect((await setStrategy('{"default": "least-busy"}')).body.success).toBe(true);
    const slow = await seedChannel(testApp, { key: 'busy-slow', baseUrl: first.baseUrl, models: ['busy-model'] });
    await seedChannel(testApp, { key: 'busy-fast', baseUrl: second.baseUrl, models: ['busy-model'] });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    first.beforeAnswer = () => held;
    const pending: Array<Promise<Response>> = [];
    for (let request = 0; request < 20; request += 1) {
      const fastBefore = second.requests.length;
      const answer = chat('busy-model');
      pending.push(answer);
      await untilReceived(request + 1);
      // An answer from the fast channel completes before the next request; one on the slow channel stays in flight.
      if (second.requests.length > fastBefore) expect((await answer).status).toBe(200);
    }
    expect(testApp.app.relay.router.busy.of(slow)).toBe(first.requests.length);
    // Weighted random would have sent about half of them to the held channel.
    expect(first.requests.length).toBeLessThanOrEqual(1);
    expect(second.requests.length).toBeGreaterThanOrEqual(19);
    release();
    const statuses = await Promise.all(pending.map(async (answer) => (await answer).status));
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(testApp.app.relay.router.busy.of(slow)).toBe(0);
  });

  it('lowest-latency moves traffic off a channel that slowed down, and back once it recovers', async () => {
    expect((await setStrategy('{"default": "lowest-latency"}')).body.success).toBe(true);
    await seedChannel(testApp, { key: 'latency-a', baseUrl: first.baseUrl, models: ['latency-model'] });
    await seedChannel(testApp, { key: 'latency-b', baseUrl: second.baseUrl, models: ['latency-model'] });
    // Time to first byte on the app's clock: A answers in 100 ms, B in 800 ms. The clock is real time
    // plus these steps, so a loaded machine adds real time to a sample: the gap is what a stall must
    // exceed to make A look slower than B (it was 300 ms, and a CI run at load 14 crossed it). Thirty
    // of B's answers (24 s) stay within the averages' staleness window (30 s).
    let firstDelayMs = 100;
    first.beforeAnswer = async () => clock.advance(firstDelayMs);
    second.beforeAnswer = async () => clock.advance(800);
    const servedBy = async (count: number) => {
      const before = { a: first.requests.length, b: second.requests.length };
      for (let request = 0; request < count; request += 1) expect((await chat('latency-model')).status).toBe(200);
      return { a: first.requests.length - before.a, b: second.requests.length - before.b };
    };
    // Both measured once, then the faster one serves (a few exploring picks aside).
    const warm = await servedBy(30);
    expect(warm.a).toBeGreaterThanOrEqual(25);
    // A slows down to 10 s: its first slow answer takes its average past B's and traffic moves to B.
    firstDelayMs = 10_000;
    await servedBy(5);
    const slowed = await servedBy(30);
    expect(slowed.b).toBeGreaterThanOrEqual(25);
    // A recovers; B's average ages past the staleness window on the clock (no real waiting) and A is measured again.
    firstDelayMs = 100;
    clock.advance(testApp.app.relay.router.latency.staleAfterMs + 1);
    await servedBy(5);
    const recovered = await servedBy(30);
    expect(recovered.a).toBeGreaterThanOrEqual(25);
  });

  it('usage-aware keeps each key under its RPM and spills the rest to the next tier', async () => {
    expect((await setStrategy('{"default": "weighted", "groups": {"default": "usage-aware"}}')).body.success).toBe(true);
    await seedChannel(testApp, {
      key: 'rpm-key-0\nrpm-key-1',
      baseUrl: first.baseUrl,
      models: ['rpm-model'],
      priority: 10,
      setting: JSON.stringify({ key_rpm_limit: 2 }),
    });
    await seedChannel(testApp, { key: 'rpm-spare', baseUrl: second.baseUrl, models: ['rpm-model'], priority: 0 });
    for (let request = 0; request < 7; request += 1) expect((await chat('rpm-model')).status).toBe(200);
    const perKey = new Map<string, number>();
    for (const request of first.requests) perKey.set(request.key, (perKey.get(request.key) ?? 0) + 1);
    // Weighted routing would have sent all seven to the higher-priority channel.
    expect(Object.fromEntries(perKey)).toEqual({ 'rpm-key-0': 2, 'rpm-key-1': 2 });
    expect(second.requests).toHaveLength(3);
    // A minute later (on the clock) the keys have room again.
    clock.advance(120_000);
    expect((await chat('rpm-model')).status).toBe(200);
    expect(first.requests).toHaveLength(5);
  });

  it("walks a multi-key channel's keys in order across requests, from new-api's polling index, skipping disabled keys", async () => {
    expect((await setStrategy('{"default": "weighted"}')).body.success).toBe(true);
    await seedChannel(testApp, {
      key: ['poll-0', 'poll-1', 'poll-2', 'poll-3'].join('\n'),
      baseUrl: first.baseUrl,
      models: ['poll-model'],
      channelInfo: JSON.stringify({
        is_multi_key: true,
        multi_key_size: 4,
        multi_key_mode: 'polling',
        multi_key_polling_index: 1,
        multi_key_status_list: { 2: 2 },
      }),
    });
    for (let request = 0; request < 6; request += 1) expect((await chat('poll-model')).status).toBe(200);
    expect(first.requests.map((request) => request.key)).toEqual(['poll-1', 'poll-3', 'poll-0', 'poll-1', 'poll-3', 'poll-0']);
  });

  it('keeps random keys among the enabled ones in random mode', async () => {
    await seedChannel(testApp, {
      key: ['rand-0', 'rand-1', 'rand-2'].join('\n'),
      baseUrl: first.baseUrl,
      models: ['rand-model'],
      channelInfo: JSON.stringify({ is_multi_key: true, multi_key_mode: 'random', multi_key_status_list: { 0: 3, 2: 2 } }),
    });
    for (let request = 0; request < 8; request += 1) expect((await chat('rand-model')).status).toBe(200);
    expect(new Set(first.requests.map((request) => request.key))).toEqual(new Set(['rand-1']));
  });
});
