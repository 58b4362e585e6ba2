import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi } from '../../api/user/testing/account-test-kit.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { ledgerState, seedChannel, seedToken } from '../testing/relay-seed.ts';

function otherOf(row: { other: string | null }): Record<string, unknown> {
  return JSON.parse(row.other ?? '{}') as Record<string, unknown>;
}

/**
 * Model fallbacks, context-window fallbacks and the `auto` group on each engine: a failing first model
 * falls to the next in its chain and is billed at the serving model's price; a context-length refusal
 * moves to the larger model; an `auto` token walks AutoGroups in order, billed at the serving group's ratio.
 */
describe.each(testDatabases())('fallbacks and the auto group on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    const { options } = testApp.context;
    const ratios = options.getJson<Record<string, number>>('ModelRatio');
    await options.set(
      'ModelRatio',
      JSON.stringify({ ...ratios, 'fb-primary': 10, 'fb-second': 2, 'fb-unserved': 5, 'cw-small': 1, 'cw-large': 3, 'auto-model': 1 }),
    );
    await options.set('RetryTimes', '1');
    await options.set('ModelFallbacks', JSON.stringify({ 'fb-primary': ['fb-second'], 'fb-unserved': ['fb-second'] }));
    await options.set('ContextWindowFallbacks', JSON.stringify({ 'cw-small': 'cw-large' }));
    await options.set('GroupRatio', JSON.stringify({ default: 1, 'auto-first': 1, 'auto-second': 3 }));
    await options.set('UserUsableGroups', JSON.stringify({ default: 'default', 'auto-first': 'first', 'auto-second': 'second' }));
    await options.set('AutoGroups', JSON.stringify(['auto-first', 'auto-second']));
    await seedChannel(testApp, { key: 'fb-primary-upstream', baseUrl: fake.baseUrl, models: ['fb-primary'], autoBan: false });
    await seedChannel(testApp, { key: 'fb-second-upstream', baseUrl: fake.baseUrl, models: ['fb-second'] });
    await seedChannel(testApp, { key: 'cw-small-upstream', baseUrl: fake.baseUrl, models: ['cw-small'], autoBan: false });
    await seedChannel(testApp, { key: 'cw-large-upstream', baseUrl: fake.baseUrl, models: ['cw-large'] });
    await seedChannel(testApp, { key: 'auto-upstream', baseUrl: fake.baseUrl, models: ['auto-model'], groups: ['auto-second'] });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  const chat = (apiKey: string, model: string) =>
    testApp.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      payload: { model, messages: [{ role: 'user', content: 'fall back' }] },
    });

  it('falls to the next model when every attempt of the first failed, billed at the serving model', async () => {
    fake.behave('fb-primary-upstream', 'status-500');
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, user.id);
    const answer = await chat(token.apiKey, 'fb-primary');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-switchboard-model']).toBe('fb-second');
    expect(answer.json()).toMatchObject({ model: 'fb-second' });
    expect(fake.requestsFor('fb-primary-upstream').length).toBeGreaterThan(0);
    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    expect(state.logs).toHaveLength(1);
    const [log] = state.logs;
    if (!log) throw new Error('consume row missing');
    expect(log.model_name).toBe('fb-second');
    expect(otherOf(log)).toMatchObject({ fallback_chain: ['fb-primary', 'fb-second'], requested_model: 'fb-primary', model_ratio: 2 });
    expect(state.token.used_quota).toBe(log.quota);
  });

  it('falls back when no channel serves the model at all', async () => {
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, user.id);
    const answer = await chat(token.apiKey, 'fb-unserved');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-switchboard-model']).toBe('fb-second');
  });

  it('does not fall back on a caller error, and refunds every hold', async () => {
    fake.behave('fb-primary-upstream', 'context-length');
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, user.id);
    const answer = await chat(token.apiKey, 'fb-primary');
    expect(answer.statusCode).toBe(400);
    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    expect(state.logs).toHaveLength(0);
    expect(state.token.used_quota).toBe(0);
    fake.behave('fb-primary-upstream', 'status-500');
  });

  it('moves a context-length refusal to the configured larger-context model', async () => {
    fake.behave('cw-small-upstream', 'context-length');
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, user.id);
    const answer = await chat(token.apiKey, 'cw-small');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-switchboard-model']).toBe('cw-large');
    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    expect(state.logs.map((log) => log.model_name)).toEqual(['cw-large']);
  });

  it("follows the token's own fallbacks and cache opt-out, set by its owner through the token API", async () => {
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const refused = await callApi(testApp, 'POST', '/api/token/', {
      headers: user.headers,
      body: { name: 'bad-fallbacks', remain_quota: 1_000_000, model_fallbacks: '{"fb-unserved": "fb-second"}' },
      language: 'en',
    });
    expect(refused.body).toMatchObject({ success: false, message: "The token's model fallbacks must map each model to a non-empty list of model names" });
    const created = await callApi(testApp, 'POST', '/api/token/', {
      headers: user.headers,
      body: { name: 'own-fallbacks', remain_quota: 1_000_000, model_fallbacks: '{"cw-unserved": ["cw-large"]}', response_cache_off: true },
    });
    expect(created.body.success).toBe(true);
    const row = await testApp.context.database.db
      .selectFrom('tokens')
      .select(['id', 'key', 'model_fallbacks'])
      .where('name', '=', 'own-fallbacks')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.model_fallbacks).toBe('{"cw-unserved": ["cw-large"]}');
    const listed = await callApi(testApp, 'GET', `/api/token/${row.id}`, { headers: user.headers });
    expect(listed.body.data).toMatchObject({ response_cache_off: true, model_fallbacks: '{"cw-unserved": ["cw-large"]}' });
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'cw-unserved': 1 }));
    await testApp.context.options.set('ResponseCacheRules', JSON.stringify([{ model: 'cw-*', ttl: 60, hit_ratio: 0 }]));
    try {
      const answer = await chat(`sk-${row.key}`, 'cw-unserved');
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['x-switchboard-model']).toBe('cw-large');
      // The owner opted this token out of the cache: no rule applies to its requests.
      expect(answer.headers['x-switchboard-cache']).toBeUndefined();
    } finally {
      await testApp.context.options.set('ResponseCacheRules', '[]');
    }
  });

  it('walks an auto token through AutoGroups in order, at the serving group ratio', async () => {
    const user = await createTestUser(testApp, { quota: 100_000_000 });
    const token = await seedToken(testApp, user.id, { group: 'auto' });
    const answer = await chat(token.apiKey, 'auto-model');
    expect(answer.statusCode).toBe(200);
    const state = await ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] });
    const [log] = state.logs;
    if (!log) throw new Error('consume row missing');
    expect(log.group).toBe('auto-second');
    expect(otherOf(log)).toMatchObject({ auto_group: 'auto-second', group_ratio: 3 });
    // No usable auto group: refused before anything is held.
    await testApp.context.options.set('AutoGroups', JSON.stringify(['nobody-has-it']));
    try {
      expect((await chat(token.apiKey, 'auto-model')).statusCode).toBe(403);
    } finally {
      await testApp.context.options.set('AutoGroups', JSON.stringify(['auto-first', 'auto-second']));
    }
  });
});
