import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi } from '../../api/user/testing/account-test-kit.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { ledgerState, seedChannel, seedToken } from '../testing/relay-seed.ts';

const model = 'cache-model';
const upstreamKey = 'cache-upstream';

function otherOf(row: { other: string | null }): Record<string, unknown> {
  return JSON.parse(row.other ?? '{}') as Record<string, unknown>;
}

/**
 * The response cache end to end on each engine: off by default, a repeated request answered from the
 * cache without an upstream call and billed at the rule's hit ratio (whole and streamed, the stream's
 * bytes replayed as first sent), the caller's `no-cache` honoured, and bad rules refused unchanged.
 */
describe.each(testDatabases())('the response cache on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let root: TestUser;
  let channelId: number;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 10 }));
    channelId = await seedChannel(testApp, { key: upstreamKey, baseUrl: fake.baseUrl, models: [model] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  const chat = (apiKey: string, content: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
      payload: { model, messages: [{ role: 'user', content }], ...extra },
    });
  const putOption = (key: string, value: string, language?: 'en') =>
    callApi(testApp, 'PUT', '/api/option/', { headers: root.headers, body: { key, value }, ...(language ? { language } : {}) });

  it('is off by default: both requests reach the upstream, no cache header, the serving model named', async () => {
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, user.id);
    const before = fake.requestsFor(upstreamKey).length;
    const first = await chat(token.apiKey, 'off by default');
    const second = await chat(token.apiKey, 'off by default');
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(fake.requestsFor(upstreamKey).length).toBe(before + 2);
    expect(second.headers['x-switchboard-cache']).toBeUndefined();
    expect(second.headers['x-switchboard-model']).toBe(model);
  });

  it('answers a repeated request from the cache, without the upstream, billed at the hit ratio', async () => {
    expect((await putOption('ResponseCacheRules', JSON.stringify([{ model: 'cache-*', ttl: 300, hit_ratio: 0.1, scope: 'shared' }]))).body.success).toBe(true);
    try {
      const user = await createTestUser(testApp, { quota: 100_000_000 });
      const token = await seedToken(testApp, user.id);
      const before = fake.requestsFor(upstreamKey).length;
      const miss = await chat(token.apiKey, 'whole answer please');
      expect(miss.statusCode).toBe(200);
      expect(miss.headers['x-switchboard-cache']).toBe('miss');
      // Another caller's key (the key is never part of the cache key in the shared scope).
      const other = await seedToken(testApp, user.id);
      const hit = await chat(other.apiKey, 'whole answer please', { user: 'someone-else' });
      expect(hit.statusCode).toBe(200);
      expect(hit.headers['x-switchboard-cache']).toBe('hit');
      expect(hit.headers['x-switchboard-model']).toBe(model);
      // What every relay answer carries: its own request id (the one in its log row) and any origin allowed.
      expect(hit.headers['x-oneapi-request-id']).toMatch(/^\d{14}/);
      expect(hit.headers['x-oneapi-request-id']).not.toBe(miss.headers['x-oneapi-request-id']);
      expect(hit.headers['access-control-allow-origin']).toBe('*');
      expect(hit.body).toBe(miss.body);
      expect(fake.requestsFor(upstreamKey).length).toBe(before + 1);

      const missState = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
      const hitState = await ledgerState(testApp, { tokenId: other.id, userId: user.id, channelIds: [] });
      const [missLog] = missState.logs;
      const [hitLog] = hitState.logs;
      if (!missLog || !hitLog) throw new Error('consume rows missing');
      expect(missLog.quota).toBeGreaterThan(100);
      expect(hitLog.quota).toBe(Math.round(missLog.quota * 0.1));
      expect(hitLog.channel_id).toBe(0);
      expect(hitLog.request_id).toBe(hit.headers['x-oneapi-request-id']);
      expect([hitLog.prompt_tokens, hitLog.completion_tokens]).toEqual([missLog.prompt_tokens, missLog.completion_tokens]);
      expect(otherOf(hitLog)).toMatchObject({ response_cache: 'hit', response_cache_hit_ratio: 0.1, response_cache_full_quota: missLog.quota });
      expect(otherOf(missLog)).toMatchObject({ response_cache: 'miss' });
      // Every quota change matched by its log row: token balances moved by exactly the logged amounts.
      expect(missState.token.used_quota).toBe(missLog.quota);
      expect(hitState.token.used_quota).toBe(hitLog.quota);
      expect(hitState.user.used_quota).toBe(missLog.quota + hitLog.quota);

      // The caller's no-cache asks for a fresh answer (and stores it); a different prompt is a miss.
      const fresh = await chat(token.apiKey, 'whole answer please', {}, { 'cache-control': 'no-cache' });
      expect(fresh.headers['x-switchboard-cache']).toBe('miss');
      const refresh = await chat(token.apiKey, 'whole answer please', {}, { 'x-switchboard-cache': 'refresh' });
      expect(refresh.headers['x-switchboard-cache']).toBe('miss');
      expect((await chat(token.apiKey, 'another prompt')).headers['x-switchboard-cache']).toBe('miss');
      expect(fake.requestsFor(upstreamKey).length).toBe(before + 4);
    } finally {
      await putOption('ResponseCacheRules', '[]');
    }
  });

  it('replays a streamed answer with the same events and framing, free at hit ratio 0', async () => {
    expect((await putOption('ResponseCacheRules', JSON.stringify([{ model, ttl: 60, hit_ratio: 0 }]))).body.success).toBe(true);
    try {
      const user = await createTestUser(testApp, { quota: 100_000_000 });
      const token = await seedToken(testApp, user.id);
      const before = fake.requestsFor(upstreamKey).length;
      const miss = await chat(token.apiKey, 'stream it', { stream: true });
      const hit = await chat(token.apiKey, 'stream it', { stream: true });
      expect(miss.headers['x-switchboard-cache']).toBe('miss');
      expect(hit.headers['x-switchboard-cache']).toBe('hit');
      expect(hit.headers['content-type']).toContain('text/event-stream');
      expect(hit.headers['cache-control']).toBe('no-cache');
      expect(hit.headers['x-oneapi-request-id']).toMatch(/^\d{14}/);
      expect(hit.headers['access-control-allow-origin']).toBe('*');
      expect(hit.body).toBe(miss.body);
      expect(hit.body).toContain('data: [DONE]');
      expect(fake.requestsFor(upstreamKey).length).toBe(before + 1);
      // A whole request is not answered with the stream's bytes.
      expect((await chat(token.apiKey, 'stream it')).headers['x-switchboard-cache']).toBe('miss');
      const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
      const hitLog = state.logs[1];
      expect(hitLog?.quota).toBe(0);
      expect(Number(hitLog?.is_stream)).toBe(1);
      expect(otherOf(hitLog ?? { other: null })).toMatchObject({ response_cache: 'hit' });
    } finally {
      await putOption('ResponseCacheRules', '[]');
    }
  });

  // The hit is answered before a channel is chosen, so the key names what chooses the channels: a
  // group's channels may map the model elsewhere or shape the request differently.
  it("keeps each group's answers apart, and answers a key pinned to a channel from that channel", async () => {
    const vipKey = 'cache-vip-upstream';
    await seedChannel(testApp, { key: vipKey, baseUrl: fake.baseUrl, models: [model], groups: ['vip'] });
    expect((await putOption('ResponseCacheRules', JSON.stringify([{ model, ttl: 60, hit_ratio: 0.1 }]))).body.success).toBe(true);
    try {
      const user = await createTestUser(testApp, { quota: 100_000_000 });
      const vipUser = await createTestUser(testApp, { quota: 100_000_000, group: 'vip' });
      const token = await seedToken(testApp, user.id);
      const vipToken = await seedToken(testApp, vipUser.id);
      const before = { shared: fake.requestsFor(upstreamKey).length, vip: fake.requestsFor(vipKey).length };
      expect((await chat(token.apiKey, 'per group')).headers['x-switchboard-cache']).toBe('miss');
      expect((await chat(vipToken.apiKey, 'per group')).headers['x-switchboard-cache']).toBe('miss');
      expect((await chat(vipToken.apiKey, 'per group')).headers['x-switchboard-cache']).toBe('hit');
      expect(fake.requestsFor(vipKey).length).toBe(before.vip + 1);

      // An administrator's key pinned to the channel wants that channel's answer: no lookup, nothing stored.
      const admin = await createTestUser(testApp, { role: 10, quota: 100_000_000 });
      const adminToken = await seedToken(testApp, admin.id);
      const pinned = await chat(`${adminToken.apiKey}-${channelId}`, 'per group');
      expect(pinned.statusCode).toBe(200);
      expect(pinned.headers['x-switchboard-cache']).toBeUndefined();
      expect(fake.requestsFor(upstreamKey).length).toBe(before.shared + 2);
      expect((await chat(token.apiKey, 'per group')).headers['x-switchboard-cache']).toBe('hit');
    } finally {
      await putOption('ResponseCacheRules', '[]');
    }
  });

  it('never caches tool turns, n > 1 or failed answers unless the rule says so', async () => {
    expect((await putOption('ResponseCacheRules', JSON.stringify([{ model, ttl: 60, hit_ratio: 0.5 }]))).body.success).toBe(true);
    try {
      const user = await createTestUser(testApp, { quota: 100_000_000 });
      const token = await seedToken(testApp, user.id);
      const tools = [{ type: 'function', function: { name: 'now', parameters: { type: 'object', properties: {} } } }];
      expect((await chat(token.apiKey, 'with tools', { tools })).headers['x-switchboard-cache']).toBeUndefined();
      expect((await chat(token.apiKey, 'with tools', { tools })).headers['x-switchboard-cache']).toBeUndefined();
      expect((await chat(token.apiKey, 'several', { n: 2 })).headers['x-switchboard-cache']).toBeUndefined();
      fake.behave(upstreamKey, 'status-500');
      expect((await chat(token.apiKey, 'fails first')).statusCode).toBe(500);
      fake.behave(upstreamKey, 'ok');
      expect((await chat(token.apiKey, 'fails first')).headers['x-switchboard-cache']).toBe('miss');
    } finally {
      fake.behave(upstreamKey, 'ok');
      await putOption('ResponseCacheRules', '[]');
    }
  });

  it('is purged by an administrator only, after which the answer is fetched again', async () => {
    expect((await putOption('ResponseCacheRules', JSON.stringify([{ model, ttl: 60, hit_ratio: 0.1 }]))).body.success).toBe(true);
    try {
      const user = await createTestUser(testApp, { quota: 100_000_000 });
      const token = await seedToken(testApp, user.id);
      await chat(token.apiKey, 'purge me');
      expect((await chat(token.apiKey, 'purge me')).headers['x-switchboard-cache']).toBe('hit');
      const refused = await callApi(testApp, 'POST', '/api/response_cache/purge', { headers: user.headers });
      expect(refused.body.success).toBe(false);
      expect((await chat(token.apiKey, 'purge me')).headers['x-switchboard-cache']).toBe('hit');
      const admin = await createTestUser(testApp, { role: 10 });
      const purged = await callApi(testApp, 'POST', '/api/response_cache/purge', { headers: admin.headers });
      expect(purged.body).toMatchObject({ success: true });
      expect((purged.body.data as { dropped: number }).dropped).toBeGreaterThan(0);
      expect((await chat(token.apiKey, 'purge me')).headers['x-switchboard-cache']).toBe('miss');

      // The dashboard's savings: per model and per token, administrators only.
      await testApp.app.relay.flusher.flush();
      await testApp.app.relay.flusher.flush();
      expect((await callApi(testApp, 'GET', '/api/response_cache/stats', { headers: user.headers })).body.success).toBe(false);
      const stats = await callApi(testApp, 'GET', '/api/response_cache/stats?days=1', { headers: admin.headers });
      const data = stats.body.data as {
        hits: number;
        misses: number;
        hit_rate: number;
        by_token: Array<{ token_id: number; hits: number; misses: number; quota_saved: number; tokens_saved: number }>;
        by_model: Array<{ model: string; hits: number }>;
      };
      const line = data.by_token.find((entry) => entry.token_id === token.id);
      expect(line).toMatchObject({ hits: 2, misses: 2 });
      expect(line?.quota_saved).toBeGreaterThan(0);
      expect(line?.tokens_saved).toBe(2 * 18);
      expect(data.by_model.find((entry) => entry.model === model)?.hits).toBeGreaterThanOrEqual(2);
      expect(data.hit_rate).toBeGreaterThan(0);
      expect(data.hit_rate).toBeLessThan(1);
    } finally {
      await putOption('ResponseCacheRules', '[]');
    }
  });

  it('refuses a bad rule with a message naming the rule and field, and changes nothing', async () => {
    const refused = await putOption('ResponseCacheRules', JSON.stringify([{ model: 'gpt-4o*', ttl: 300, hit_ratio: 1.5 }]), 'en');
    expect(refused.body.success).toBe(false);
    expect(refused.body.message).toBe('ResponseCacheRules rule 1: hit_ratio is invalid, expected a number from 0 to 1');
    const unknown = await putOption('ResponseCacheRules', JSON.stringify([{ model: 'a', ttl: 1, colour: 'red' }]));
    expect(unknown.body.message).toBe('ResponseCacheRules 第 1 条规则含未知字段 colour');
    const selfFallback = await putOption('ModelFallbacks', JSON.stringify({ 'gpt-5': ['gpt-5'] }), 'en');
    expect(selfFallback.body.message).toBe('ModelFallbacks: model gpt-5 cannot fall back to itself');
    expect(testApp.context.options.get('ResponseCacheRules')).toBe('[]');
    expect(testApp.context.options.getJson('ModelFallbacks')).toEqual({});
  });
});
