import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../../../testing/test-app.ts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../../testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, seedChannel, seedToken, type SeedChannel } from '../../testing/relay-seed.ts';
import { startFakeClaude } from '../../providers/claude/testing/fake-claude.ts';
import type { FakeServer } from '../../providers/claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { startFakeGemini } from '../../providers/gemini/testing/fake-gemini.ts';

// Shaping does not depend on the database: SQLite, and PostgreSQL when TEST_PG_URL is set.
const databases = testDatabases().filter((database) => database.dialect === 'sqlite' || database.dialect === 'postgres');

describe.each(databases)('channel request shaping on the relay on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;
  let userId: number;
  let channels = 0;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    userId = (await createTestUser(testApp, { quota: 100_000_000 })).id;
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    const shapedModels = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`shaped-model-${index + 1}`, 1]));
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, ...shapedModels }));
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  /** A channel serving one (priced) model of its own, so each test routes to exactly its channel. */
  async function channelFor(seed: Partial<SeedChannel> | ((model: string) => Partial<SeedChannel>)): Promise<{ id: number; model: string; key: string }> {
    channels += 1;
    const model = `shaped-model-${channels}`;
    const key = `shaping-key-${channels}`;
    const id = await seedChannel(testApp, { key, baseUrl: fake.baseUrl, models: [model], ...(typeof seed === 'function' ? seed(model) : seed) });
    return { id, model, key };
  }

  async function post(path: string, apiKey: string, body: unknown): Promise<Response> {
    return fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  it('sends the channel system prompt, classic override and headers (with the key) upstream, and bills the model it asked for', async () => {
    const channel = await channelFor({
      setting: '{"system_prompt":"Answer in French."}',
      paramOverride: JSON.stringify({ model: 'upstream-override-model', temperature: 0.1 }),
      headerOverride: JSON.stringify({ 'X-Vendor-Key': 'k={api_key}', 'X-Title': 'switchboard' }),
    });
    const token = await seedToken(testApp, userId);
    const answer = await post('/v1/chat/completions', token.apiKey, { model: channel.model, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status, await answer.clone().text()).toBe(200);

    const sent = fake.requestsFor(channel.key).at(-1);
    expect(sent?.body).toEqual({
      model: 'upstream-override-model',
      temperature: 0.1,
      messages: [
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'hi' },
      ],
    });
    expect(sent?.headers['x-vendor-key']).toBe(`k=${channel.key}`);
    expect(sent?.headers['x-title']).toBe('switchboard');

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channel.id] });
    const log = state.logs.at(-1);
    expect(log).toMatchObject({ model_name: channel.model, prompt_tokens: fake.usage.prompt, completion_tokens: fake.usage.completion });
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ is_model_mapped: true, upstream_model_name: 'upstream-override-model' });
  });

  it('runs operations on the body the upstream gets, with their conditions', async () => {
    const channel = await channelFor({
      paramOverride: JSON.stringify({
        operations: [
          { path: 'max_tokens', mode: 'set', value: 256, conditions: [{ path: 'max_tokens', mode: 'gt', value: 256 }] },
          { path: 'messages.-1.content', mode: 'append', value: ' Please.' },
          { path: 'user', mode: 'delete' },
        ],
      }),
    });
    const token = await seedToken(testApp, userId);
    const answer = await post('/v1/chat/completions', token.apiKey, {
      model: channel.model,
      max_tokens: 9000,
      user: 'u-1',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(answer.status).toBe(200);
    expect(fake.requestsFor(channel.key).at(-1)?.body).toEqual({ model: channel.model, max_tokens: 256, messages: [{ role: 'user', content: 'hi Please.' }] });
  });

  it('applies param_override to /v1/responses and /v1/embeddings bodies too', async () => {
    const channel = await channelFor({ paramOverride: '{"service_tier":"flex","dimensions":256}', settings: '{"allow_service_tier":true}' });
    const token = await seedToken(testApp, userId);
    expect((await post('/v1/responses', token.apiKey, { model: channel.model, input: 'hi' })).status).toBe(200);
    expect(fake.requestsFor(channel.key).at(-1)?.body).toMatchObject({ model: channel.model, input: 'hi', service_tier: 'flex' });
    expect((await post('/v1/embeddings', token.apiKey, { model: channel.model, input: 'hi' })).status).toBe(200);
    expect(fake.requestsFor(channel.key).at(-1)?.body).toEqual({ model: channel.model, input: 'hi', service_tier: 'flex', dimensions: 256 });
  });

  it('refuses the request in the caller format on return_error, without calling the upstream or charging', async () => {
    const channel = await channelFor({
      paramOverride: JSON.stringify({
        operations: [{ mode: 'return_error', value: { message: 'this channel takes no images', status_code: 403, code: 'no_images' } }],
      }),
    });
    const token = await seedToken(testApp, userId);
    const answer = await post('/v1/chat/completions', token.apiKey, { model: channel.model, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(403);
    const body = (await answer.json()) as { error: { message: string; code: string } };
    expect(body.error.code).toBe('no_images');
    expect(body.error.message).toContain('this channel takes no images');
    expect(fake.requestsFor(channel.key)).toHaveLength(0);
    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channel.id] });
    expect(state.logs).toHaveLength(0);
    expect(state.token.used_quota).toBe(0);
  });

  it('removes service_tier and safety_identifier by default, store only when disable_store is on', async () => {
    const plain = await channelFor({});
    const strict = await channelFor({ settings: '{"disable_store":true,"allow_safety_identifier":true}' });
    const token = await seedToken(testApp, userId);
    const request = (model: string) => ({
      model,
      service_tier: 'priority',
      safety_identifier: 'u-1',
      store: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    await post('/v1/chat/completions', token.apiKey, request(plain.model));
    await post('/v1/chat/completions', token.apiKey, request(strict.model));
    expect(fake.requestsFor(plain.key).at(-1)?.body).toEqual({ model: plain.model, store: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(fake.requestsFor(strict.key).at(-1)?.body).toEqual({ model: strict.model, safety_identifier: 'u-1', messages: [{ role: 'user', content: 'hi' }] });
  });

  it("forwards a plain request's bytes untouched on a channel that sets nothing", async () => {
    const channel = await channelFor({});
    const token = await seedToken(testApp, userId);
    const text = '{"model":"' + channel.model + '",  "messages":[{"role":"user","content":"hi"}]}';
    await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: text,
    });
    expect(fake.requestsFor(channel.key).at(-1)?.raw.toString('utf8')).toBe(text);
  });

  it('sends the caller body as it came with pass-through on: no mapping, no prompt, no override, no removed field', async () => {
    const channel = await channelFor((model) => ({
      setting: '{"pass_through_body_enabled":true,"system_prompt":"ignored"}',
      paramOverride: '{"temperature":0}',
      modelMapping: { [model]: 'mapped-elsewhere' },
    }));
    const token = await seedToken(testApp, userId);
    const text = JSON.stringify({ model: channel.model, service_tier: 'priority', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: text,
    });
    await answer.text();
    expect(fake.requestsFor(channel.key).at(-1)?.raw.toString('utf8')).toBe(text);
  });

  it('passes and moves headers, prunes objects and follows wildcard paths on the request the upstream gets', async () => {
    const channel = await channelFor({
      headerOverride: JSON.stringify({ 'X-Vendor-Account': 'acct-7' }),
      paramOverride: JSON.stringify({
        operations: [
          { mode: 'pass_headers', value: ['Session_id', 'X-Absent'] },
          { mode: 'copy_header', from: 'X-Client-Trace', to: 'X-Upstream-Trace' },
          { mode: 'move_header', from: 'X-Vendor-Account', to: 'OpenAI-Project' },
          { mode: 'prune_objects', path: 'messages', value: { where: { role: 'system' } } },
          { mode: 'delete', path: 'tools.*.function.strict' },
          { mode: 'array_remove', path: 'tools', match: { path: 'function.name', eq: 'c' } },
          { mode: 'sync_fields', from: 'header:session_id', to: 'json:prompt_cache_key' },
        ],
      }),
    });
    const token = await seedToken(testApp, userId);
    const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: {} }, strict: true } });
    const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.apiKey}`,
        'content-type': 'application/json',
        session_id: 'sess-42',
        'x-client-trace': 'trace-1',
      },
      body: JSON.stringify({
        model: channel.model,
        messages: [
          { role: 'system', content: 'dropped by the channel' },
          { role: 'user', content: 'hi' },
        ],
        tools: [tool('a'), tool('b'), tool('c')],
      }),
    });
    expect(answer.status, await answer.clone().text()).toBe(200);
    const sent = fake.requestsFor(channel.key).at(-1);
    expect(sent?.body).toEqual({
      model: channel.model,
      messages: [{ role: 'user', content: 'hi' }],
      prompt_cache_key: 'sess-42',
      tools: [
        { type: 'function', function: { name: 'a', parameters: { type: 'object', properties: {} } } },
        { type: 'function', function: { name: 'b', parameters: { type: 'object', properties: {} } } },
      ],
    });
    expect(sent?.headers).toMatchObject({ session_id: 'sess-42', 'x-upstream-trace': 'trace-1', 'openai-project': 'acct-7' });
    expect(sent?.headers).not.toHaveProperty('x-vendor-account');
    expect(sent?.headers).not.toHaveProperty('x-absent');
    // The caller's own key never goes upstream unless an operation copies it on purpose.
    expect(sent?.headers.authorization).toBe(`Bearer ${channel.key}`);
  });

  it("holds what the channel's override asks the upstream for: a raised max_tokens refuses a balance that covers only the caller's", async () => {
    const raising = { paramOverride: JSON.stringify({ operations: [{ path: 'max_tokens', mode: 'set', value: 5000 }] }) };
    // new-api's hold: (PreConsumedQuota 500, above the estimate of "hi", + max_tokens × completion ratio 1) × model ratio 1 × group ratio 1.
    const hold = 500 + 5000;
    const ask = async (model: string, quota: number) => {
      const user = await createTestUser(testApp, { quota });
      const token = await seedToken(testApp, user.id);
      const answer = await post('/v1/chat/completions', token.apiKey, { model, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
      return { answer, state: () => ledgerState(testApp, { tokenId: token.id, userId: user.id, channelIds: [] }) };
    };

    const short = await channelFor(raising);
    const refused = await ask(short.model, hold - 1);
    expect(refused.answer.status).toBe(403);
    expect(((await refused.answer.json()) as { error: { code: string } }).error.code).toBe('insufficient_user_quota');
    expect(fake.requestsFor(short.key)).toHaveLength(0);
    const untouched = await refused.state();
    expect(untouched.logs).toHaveLength(0);
    expect(untouched.user.quota).toBe(hold - 1);

    const enough = await channelFor(raising);
    const admitted = await ask(enough.model, hold);
    expect(admitted.answer.status).toBe(200);
    expect(fake.requestsFor(enough.key).at(-1)?.body).toMatchObject({ max_tokens: 5000 });
    // The charge follows the answer, not the hold.
    const charged = await admitted.state();
    expect(charged.logs).toHaveLength(1);
    expect(charged.user.quota).toBe(hold - (charged.logs[0]?.quota ?? 0));

    // The same short balance is enough where the channel keeps the caller's max_tokens: the refusal is the override's.
    const plain = await channelFor({});
    expect((await ask(plain.model, hold - 1)).answer.status).toBe(200);
  });

  it('relays on a channel whose stored override is invalid, as if it had none', async () => {
    const channel = await channelFor({ paramOverride: '{"temperature":', headerOverride: '["x"]' });
    const token = await seedToken(testApp, userId);
    const answer = await post('/v1/chat/completions', token.apiKey, { model: channel.model, messages: [{ role: 'user', content: 'hi' }] });
    expect(answer.status).toBe(200);
    expect(fake.requestsFor(channel.key).at(-1)?.body).toEqual({ model: channel.model, messages: [{ role: 'user', content: 'hi' }] });
  });
});

describe.each(testDatabases().filter((database) => database.dialect === 'sqlite'))(
  'channel request shaping on Claude and Gemini channels on $dialect',
  (database) => {
    const model = 'claude-sonnet-4-20250514';
    let relay: NativeRelay;
    let fake: FakeServer;
    let gemini: FakeServer;

    beforeAll(async () => {
      fake = await startFakeClaude();
      gemini = await startFakeGemini();
      relay = await startNativeRelay(database);
    });
    afterAll(async () => {
      await relay.close();
      await fake.close();
      await gemini.close();
    });

    it('overrides the Gemini body a Gemini caller sends, and gives it no channel system prompt (as new-api)', async () => {
      await relay.channel({
        type: 24,
        key: 'gemini-shaped',
        baseUrl: gemini.url,
        models: ['gemini-2.5-flash'],
        setting: '{"system_prompt":"Channel rules."}',
        paramOverride: JSON.stringify({ operations: [{ path: 'generationConfig.temperature', mode: 'set', value: 0.1 }] }),
        headerOverride: '{"X-Goog-User-Project":"billing-project"}',
      });
      const token = await relay.token();
      const answer = await fetch(`${relay.baseUrl}/v1beta/models/gemini-2.5-flash:generateContent?key=${token.apiKey}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 64 } }),
      });
      expect(answer.status, await answer.clone().text()).toBe(200);
      const sent = gemini.requests.at(-1);
      expect(sent?.body).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }], generationConfig: { maxOutputTokens: 64, temperature: 0.1 } });
      expect(sent?.headers['x-goog-user-project']).toBe('billing-project');
    });

    it("puts the channel's prompt before an Anthropic caller's system and overrides the Claude body it sends", async () => {
      await relay.channel({
        type: 14,
        key: 'claude-shaped',
        baseUrl: fake.url,
        models: [model],
        setting: '{"system_prompt":"Channel rules.","system_prompt_override":true}',
        paramOverride: JSON.stringify({
          operations: [
            { path: 'metadata.user_id', mode: 'set', value: 'switchboard' },
            { path: 'top_k', mode: 'set', value: 5 },
          ],
        }),
        settings: '{"allow_inference_geo":false}',
      });
      const token = await relay.token();
      const answer = await fetch(`${relay.baseUrl}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': token.apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
        body: JSON.stringify({ model, max_tokens: 64, system: 'Caller rules.', inference_geo: 'us', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(answer.status, await answer.clone().text()).toBe(200);
      const sent = fake.requests.at(-1)?.body as Record<string, unknown>;
      expect(sent.system).toBe('Channel rules.\nCaller rules.');
      expect(sent.metadata).toEqual({ user_id: 'switchboard' });
      expect(sent.top_k).toBe(5);
      expect(sent).not.toHaveProperty('inference_geo');
    });

    it('gives an OpenAI caller on a Claude channel the channel prompt as Claude `system`', async () => {
      await relay.channel({
        type: 14,
        key: 'claude-prompted',
        baseUrl: fake.url,
        models: ['claude-3-5-haiku-20241022'],
        setting: '{"system_prompt":"Channel rules."}',
      });
      const token = await relay.token();
      const answer = await fetch(`${relay.baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'claude-3-5-haiku-20241022', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect((fake.requests.at(-1)?.body as Record<string, unknown>).system).toBe('Channel rules.');
    });
  },
);
