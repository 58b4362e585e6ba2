import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { vertexProvider } from './index.ts';
import { parseServiceAccount, ServiceAccountTokens } from './service-account-token.ts';
import { fakeVertexProjects, startFakeVertex, type FakeVertex } from './testing/fake-vertex.ts';
import { vertexClaudeModel, vertexRegion } from './vertex-location.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const geminiFixtures = new URL('../gemini/__fixtures__/', import.meta.url);

describe('Vertex locations and tokens', () => {
  let fake: FakeVertex;
  beforeAll(async () => {
    fake = await startFakeVertex();
  });
  afterAll(async () => {
    await fake.close();
  });

  it('reads a region or a per-model region map, default us-central1', () => {
    expect(vertexRegion('', 'gemini-2.5-pro')).toBe('us-central1');
    expect(vertexRegion('asia-east1', 'gemini-2.5-pro')).toBe('asia-east1');
    const map = '{"default":"us-central1","claude-3-5-sonnet-20240620":"europe-west1"}';
    expect(vertexRegion(map, 'claude-3-5-sonnet-20240620')).toBe('europe-west1');
    expect(vertexRegion(map, 'gemini-2.0-flash')).toBe('us-central1');
  });

  it("names Claude models as Vertex does, with Anthropic's documented exceptions", () => {
    expect(vertexClaudeModel('claude-3-5-haiku-20241022')).toBe('claude-3-5-haiku@20241022');
    expect(vertexClaudeModel('claude-3-5-sonnet-20240620')).toBe('claude-3-5-sonnet@20240620');
    expect(vertexClaudeModel('claude-3-5-sonnet-20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeModel('claude-sonnet-4-5-20250929')).toBe('claude-sonnet-4-5@20250929');
    expect(vertexClaudeModel('claude-3-5-sonnet-v2@20241022')).toBe('claude-3-5-sonnet-v2@20241022');
    expect(vertexClaudeModel('claude-opus-4-6')).toBe('claude-opus-4-6');
  });

  it('caches an access token until five minutes before it expires, one exchange for concurrent callers', async () => {
    let now = 1_700_000_000;
    const tokens = new ServiceAccountTokens(() => now);
    const account = parseServiceAccount(fake.serviceAccount());
    if (!account) throw new Error('bad fixture');
    const [first, second] = await Promise.all([tokens.accessToken(account), tokens.accessToken(account)]);
    expect(first).toBe(second);
    expect(fake.tokensIssued()).toBe(1);
    now += 3599 - 301;
    expect(await tokens.accessToken(account)).toBe(first);
    now += 2;
    expect(await tokens.accessToken(account)).not.toBe(first);
    expect(fake.tokensIssued()).toBe(2);
  });

  it('finishes an exchange shared by concurrent callers when the first one leaves, and caches its token', async () => {
    const tokens = new ServiceAccountTokens();
    const account = parseServiceAccount(fake.serviceAccount());
    if (!account) throw new Error('bad fixture');
    const issuedBefore = fake.tokensIssued();
    const held = fake.holdTokenExchanges();
    const leaving = new AbortController();
    const first = tokens.accessToken(account, leaving.signal);
    await held.arrived;
    const staying = tokens.accessToken(account, new AbortController().signal);
    leaving.abort(new Error('client went away'));
    await expect(first).rejects.toThrow('client went away');
    held.release();
    const token = await staying;
    expect(token).toMatch(/^ya29\.fake-/);
    expect(await tokens.accessToken(account)).toBe(token);
    expect(fake.tokensIssued()).toBe(issuedBefore + 1);
  });

  it('caches the token of an exchange every caller left', async () => {
    const tokens = new ServiceAccountTokens();
    const account = parseServiceAccount(fake.serviceAccount());
    if (!account) throw new Error('bad fixture');
    const issuedBefore = fake.tokensIssued();
    const held = fake.holdTokenExchanges();
    const leaving = new AbortController();
    const first = tokens.accessToken(account, leaving.signal);
    await held.arrived;
    leaving.abort(new Error('client went away'));
    await expect(first).rejects.toThrow('client went away');
    const returning = tokens.accessToken(account);
    held.release();
    expect(await returning).toMatch(/^ya29\.fake-/);
    expect(fake.tokensIssued()).toBe(issuedBefore + 1);
  });

  it('gives a shared exchange its own time limit, so a silent token endpoint cannot hold callers forever', async () => {
    const tokens = new ServiceAccountTokens(undefined, { exchangeTimeoutMs: 1 });
    const account = parseServiceAccount(fake.serviceAccount());
    if (!account) throw new Error('bad fixture');
    const held = fake.holdTokenExchanges();
    try {
      await expect(tokens.accessToken(account)).rejects.toMatchObject({ status: 504, message: 'service account token exchange timed out' });
    } finally {
      held.release();
    }
  });

  it('classifies the recorded Vertex errors: denied and unauthenticated disable the channel, exhausted does not', () => {
    expect(vertexProvider.parseError(403, readJsonFixture(fixtures, 'error-permission-denied.json'))).toMatchObject({
      type: 'PERMISSION_DENIED',
      code: 'IAM_PERMISSION_DENIED',
      disablesChannel: true,
    });
    expect(vertexProvider.parseError(401, readJsonFixture(fixtures, 'error-unauthenticated.json'))).toMatchObject({
      type: 'UNAUTHENTICATED',
      disablesChannel: true,
    });
    expect(vertexProvider.parseError(429, readJsonFixture(fixtures, 'error-resource-exhausted.json'))).toMatchObject({
      type: 'RESOURCE_EXHAUSTED',
      disablesChannel: false,
    });
    // Claude's own refusals on Vertex keep Anthropic's error shape.
    expect(vertexProvider.parseError(400, readJsonFixture(fixtures, 'error-anthropic-version.json'))).toMatchObject({
      type: 'invalid_request_error',
      disablesChannel: false,
    });
  });

  it("reports a refused token exchange with Google's error and its description", async () => {
    const account = parseServiceAccount(fake.serviceAccount({ trusted: false }));
    if (!account) throw new Error('bad fixture');
    const refusal = readJsonFixture(fixtures, 'token-error-invalid-grant.json') as { error: string; error_description: string };
    await expect(new ServiceAccountTokens().accessToken(account)).rejects.toMatchObject({
      status: 400,
      message: `service account token exchange failed: ${refusal.error}: ${refusal.error_description}`,
    });
  });
});

describe.each(testDatabases())('Vertex AI channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeVertex;

  beforeAll(async () => {
    fake = await startFakeVertex();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('serves Gemini models through generateContent with a service-account token, streamed and not', async () => {
    const channelId = await relay.channel({
      type: 41,
      key: fake.serviceAccount({ projectId: 'proj-a' }),
      baseUrl: fake.url,
      models: ['gemini-2.5-flash', 'gemini-2.0-flash'],
      other: '{"default":"us-east5","gemini-2.0-flash":"europe-west4"}',
    });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
    });
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { name: 'get_weather', arguments: '{"location":"Boston, MA"}' } });
    expect(fake.requests.at(-1)?.path).toBe('/v1/projects/proj-a/locations/us-east5/publishers/google/models/gemini-2.5-flash:generateContent');
    expect(fake.requests.at(-1)?.headers.authorization).toMatch(/^Bearer ya29\.fake-\d+$/);

    const stream = await client.chat.completions.create({ model: 'gemini-2.0-flash', messages: [{ role: 'user', content: 'Weather?' }], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('The weather');
    expect(fake.requests.at(-1)?.url).toBe(
      '/v1/projects/proj-a/locations/europe-west4/publishers/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
    );
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [292, 1200, 90],
      [7, 9, 32],
    ]);
  });

  it("streams Gemini's JSON array (no alt=sse) to a Gemini caller with the upstream events as elements, byte for byte", async () => {
    const channelId = await relay.channel({ type: 41, key: fake.serviceAccount({ projectId: 'proj-array' }), baseUrl: fake.url, models: ['gemini-2.0-flash'] });
    const token = await relay.token();
    const response = await fetch(`${relay.baseUrl}/v1beta/models/gemini-2.0-flash:streamGenerateContent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': token.apiKey },
      body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'Weather?' }] }] }),
    });
    const text = await response.text();
    expect(response.headers.get('content-type')).toContain('application/json');
    // Each recorded event's data, as Vertex wrote it (spaces and all), one element each.
    const events = readStreamFixture(geminiFixtures, 'stream-generate-content.chunks.txt')
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => line.slice('data: '.length));
    expect(text).toBe(`[${events.join(',\r\n')}]`);
    // Asked upstream as server-sent events (by this channel or the first test's, which serves the model too).
    expect(fake.requests.at(-1)?.url).toMatch(/\/publishers\/google\/models\/gemini-2\.0-flash:streamGenerateContent\?alt=sse$/);
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[7, 9, 32]]);
  });

  it('serves Claude models through rawPredict and streamRawPredict with the Claude converters', async () => {
    const channelId = await relay.channel({ type: 41, key: fake.serviceAccount(), baseUrl: fake.url, models: ['claude-3-7-sonnet-20250219'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({ model: 'claude-3-7-sonnet-20250219', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]?.message.content).toBe('Hi! My name is Claude.');
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/v1/projects/fake-project/locations/us-central1/publishers/anthropic/models/claude-3-7-sonnet@20250219:rawPredict');
    expect(sent?.body).toMatchObject({
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 8192,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(sent?.body?.model).toBeUndefined();

    const stream = await client.chat.completions.create({ model: 'claude-3-7-sonnet-20250219', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('Hello!');
    expect(fake.requests.at(-1)?.url).toBe(
      '/v1/projects/fake-project/locations/us-central1/publishers/anthropic/models/claude-3-7-sonnet@20250219:streamRawPredict?alt=sse',
    );
    // claude-3-7-sonnet: ratio 1.5, completion 5: (2095 + 503 × 5) × 1.5 = 6915; (25 + 15 × 5) × 1.5 = 150
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => log.quota)).toEqual([6915, 150]);
  });

  it('reads a service account pasted as Google downloads it (pretty-printed over many lines) as one key', async () => {
    const pretty = JSON.stringify(JSON.parse(fake.serviceAccount({ projectId: 'pretty-project' })), null, 2);
    expect(pretty.split('\n').length).toBeGreaterThan(5);
    const channelId = await relay.channel({ type: 41, key: pretty, baseUrl: fake.url, models: ['claude-3-haiku-20240307'] });
    expect(relay.testApp.app.relay.channels.get(channelId)?.keys).toEqual([pretty.trim()]);
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-3-haiku-20240307',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]?.message.content).toBe('Hi! My name is Claude.');
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/v1/projects/pretty-project/locations/us-central1/publishers/anthropic/models/claude-3-haiku@20240307:rawPredict');
    expect(sent?.headers.authorization).toMatch(/^Bearer ya29\.fake-\d+$/);
    // claude-3-haiku: ratio 0.125, completion 5: (2095 + 503 × 5) × 0.125 = 576.25 → 576
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 576, channel_id: channelId });
  });

  it('calls Claude 3.5 Sonnet v2 by its Vertex id', async () => {
    await relay.channel({ type: 41, key: fake.serviceAccount(), baseUrl: fake.url, models: ['claude-3-5-sonnet-20241022'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-3-5-sonnet-20241022',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]?.message.content).toBe('Hi! My name is Claude.');
    expect(fake.requests.at(-1)?.path).toBe(
      '/v1/projects/fake-project/locations/us-central1/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:rawPredict',
    );
  });

  it('disables a channel whose service account Google refuses', async () => {
    const refused = await relay.channel({
      type: 41,
      key: fake.serviceAccount({ trusted: false }),
      baseUrl: fake.url,
      models: ['gemini-1.5-flash'],
      priority: 10,
    });
    const backup = await relay.channel({ type: 41, key: fake.serviceAccount(), baseUrl: fake.url, models: ['gemini-1.5-flash'], priority: 0 });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gemini-1.5-flash',
      messages: [{ role: 'user', content: 'Explain AI' }],
    });
    expect(answer.choices[0]?.message.content).toBe('AI learns patterns from data to make predictions.');
    await relay.waitForStatus(refused, ChannelStatus.autoDisabled);
    const state = await token.state([refused, backup]);
    expect(state.channels.find((channel) => channel.id === refused)?.status).toBe(ChannelStatus.autoDisabled);
    expect(state.logs[0]).toMatchObject({ channel_id: backup });
  });

  it('retries a rate-limited (RESOURCE_EXHAUSTED) Vertex channel on another one and keeps it enabled', async () => {
    const exhausted = await relay.channel({
      type: 41,
      key: fake.serviceAccount({ projectId: fakeVertexProjects.exhausted }),
      baseUrl: fake.url,
      models: ['gemini-1.5-pro'],
      priority: 10,
    });
    const backup = await relay.channel({
      type: 41,
      key: fake.serviceAccount({ projectId: 'backup-project' }),
      baseUrl: fake.url,
      models: ['gemini-1.5-pro'],
      priority: 0,
    });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gemini-1.5-pro',
      messages: [{ role: 'user', content: 'Explain AI' }],
    });
    expect(answer.choices[0]?.message.content).toBe('AI learns patterns from data to make predictions.');
    const modelCalls = fake.requests.filter((request) => request.path.startsWith('/v1/projects/'));
    expect(modelCalls.slice(-2).map((request) => request.path.split('/')[3])).toEqual([fakeVertexProjects.exhausted, 'backup-project']);
    const state = await token.state([exhausted, backup]);
    expect(state.channels.find((channel) => channel.id === exhausted)?.status).toBe(ChannelStatus.enabled);
    // gemini-1.5-pro: ratio 0.625, completion 4: (8 + 10 × 4) × 0.625 = 30.
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, quota: 30, content: `retry: ${exhausted}->${backup}` });
  });

  it.each([
    { status: 403, project: fakeVertexProjects.denied, model: 'gemini-2.5-pro', text: 'AI learns patterns from data to make predictions.' },
    { status: 401, project: fakeVertexProjects.unauthenticated, model: 'claude-3-5-haiku-20241022', text: 'Hi! My name is Claude.' },
  ])('disables a channel whose model endpoint answers $status after a good token exchange, when auto-ban is on', async ({ project, model, text }) => {
    const refused = await relay.channel({ type: 41, key: fake.serviceAccount({ projectId: project }), baseUrl: fake.url, models: [model], priority: 10 });
    const keptOn = await relay.channel({
      type: 41,
      key: fake.serviceAccount({ projectId: project }),
      baseUrl: fake.url,
      models: [model],
      priority: 5,
      autoBan: false,
    });
    const backup = await relay.channel({
      type: 41,
      key: fake.serviceAccount({ projectId: 'backup-project' }),
      baseUrl: fake.url,
      models: [model],
      priority: 0,
    });
    const issuedBefore = fake.tokensIssued();
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    expect((await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })).choices[0]?.message.content).toBe(text);
    // The token exchange itself succeeded: it is the model endpoint that refused.
    expect(fake.tokensIssued()).toBeGreaterThan(issuedBefore);
    expect(fake.requests.some((request) => request.path.startsWith(`/v1/projects/${project}/`))).toBe(true);
    await relay.waitForStatus(refused, ChannelStatus.autoDisabled);
    // Next request: the disabled channel is skipped; the one with auto-ban off refuses again but stays enabled.
    expect((await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] })).choices[0]?.message.content).toBe(text);
    const state = await token.state([refused, keptOn, backup]);
    expect(state.channels.find((channel) => channel.id === refused)?.status).toBe(ChannelStatus.autoDisabled);
    expect(state.channels.find((channel) => channel.id === keptOn)?.status).toBe(ChannelStatus.enabled);
    expect(state.logs.map((log) => log.channel_id)).toEqual([backup, backup]);
  });

  it('streams Claude tool calls through streamRawPredict, with cache usage and the exact charge', async () => {
    const channelId = await relay.channel({ type: 41, key: fake.serviceAccount(), baseUrl: fake.url, models: ['claude-sonnet-4-20250514'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'Weather in San Francisco?' }],
      tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const calls: { id: string; name: string; arguments: string }[] = [];
    let content = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? '';
      for (const call of choice?.delta.tool_calls ?? []) {
        const entry = (calls[call.index] ??= { id: '', name: '', arguments: '' });
        entry.id ||= call.id ?? '';
        entry.name += call.function?.name ?? '';
        entry.arguments += call.function?.arguments ?? '';
      }
      finish = choice?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe("Okay, let's check the weather.");
    expect(calls).toEqual([{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: '{"location": "San Francisco, CA"}' }]);
    expect(finish).toBe('tool_calls');
    expect(usage).toMatchObject({ prompt_tokens: 4672, completion_tokens: 89, prompt_tokens_details: { cached_tokens: 3000 } });
    const sent = fake.requests.at(-1);
    expect(sent?.url).toBe('/v1/projects/fake-project/locations/us-central1/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict?alt=sse');
    expect(sent?.body).toMatchObject({ anthropic_version: 'vertex-2023-10-16', stream: true, tools: [{ name: 'get_weather' }] });
    // Ratio 1.5, completion 5, cache read 0.1, cache write 1.25: (472 + 300 + 1500 + 445) × 1.5 = 4075.5 → 4076.
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 4076, prompt_tokens: 4672, completion_tokens: 89, is_stream: expect.anything() });
  });
});
