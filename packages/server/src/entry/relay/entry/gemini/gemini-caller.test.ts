import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { parseSseText } from '@switchboard/contracts';
import type { FakeServer } from '../../providers/claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { readJsonFixture } from '../../providers/claude/testing/fixtures.ts';
import { startFakeGemini } from '../../providers/gemini/testing/fake-gemini.ts';
import { FakeOpenAIUpstream } from '../../testing/fake-openai-upstream.ts';

type Json = Record<string, unknown>;

const ask = { contents: [{ role: 'user', parts: [{ text: 'Explain AI' }] }], generationConfig: { maxOutputTokens: 64 } };

/** A Gemini-format caller: plain fetch, as Google's REST examples do. */
async function generate(
  baseUrl: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string; text: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

const geminiFixtures = new URL('../../providers/gemini/__fixtures__/', import.meta.url);

describe.each(testDatabases())('Gemini-format callers on /v1beta on $dialect', (database) => {
  let relay: NativeRelay;
  let gemini: FakeServer;
  let openai: FakeOpenAIUpstream;

  beforeAll(async () => {
    gemini = await startFakeGemini();
    openai = new FakeOpenAIUpstream();
    await openai.start();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await gemini.close();
    await openai.stop();
  });

  it('gets a Gemini channel answer back with its parts, thought signature and usage (key in ?key=)', async () => {
    const channelId = await relay.channel({ type: 24, key: 'gemini-entry', baseUrl: gemini.url, models: ['gemini-2.5-flash'] });
    const token = await relay.token();
    const tools = [{ functionDeclarations: [{ name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } }] }];
    const response = await generate(relay.baseUrl, `/v1beta/models/gemini-2.5-flash:generateContent?key=${token.apiKey}`, { ...ask, tools });
    expect(response.status).toBe(200);
    // A Gemini channel's answer reaches a Gemini caller exactly as Google sent it.
    expect(response.text).toBe(JSON.stringify(readJsonFixture(geminiFixtures, 'generate-content-function-call.json')));
    const body = JSON.parse(response.text) as Json;
    expect(body.candidates).toEqual([
      {
        content: {
          role: 'model',
          parts: [
            { text: 'The user wants the weather; call the tool.', thought: true },
            { text: 'Let me look that up.' },
            { functionCall: { name: 'get_weather', args: { location: 'Boston, MA' } }, thoughtSignature: 'CiQB0e2Kb1' },
          ],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ]);
    expect(body.usageMetadata).toEqual({
      promptTokenCount: 1200,
      candidatesTokenCount: 40,
      totalTokenCount: 1290,
      cachedContentTokenCount: 1000,
      thoughtsTokenCount: 50,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1200 }],
    });
    expect(gemini.requests.at(-1)?.body).toMatchObject({ contents: ask.contents, tools, generationConfig: { maxOutputTokens: 64 } });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 292, prompt_tokens: 1200, completion_tokens: 90 });
    // The path the caller called, without the query that carried its key.
    expect(JSON.parse(state.logs[0]?.other ?? '{}').request_path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
  });

  it('streams from an OpenAI channel as SSE and as a JSON array (key in x-goog-api-key), charged exactly', async () => {
    const channelId = await relay.channel({ type: 1, key: 'openai-gemini-entry', baseUrl: openai.baseUrl, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const headers = { 'x-goog-api-key': token.apiKey };

    const whole = await generate(relay.baseUrl, '/v1beta/models/gpt-4o-mini:generateContent', ask, headers);
    expect(JSON.parse(whole.text)).toMatchObject({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hello from the fake upstream.' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6, totalTokenCount: 18 },
    });
    expect(openai.requests.at(-1)?.body).toMatchObject({
      model: 'gpt-4o-mini',
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Explain AI' }] }],
    });

    const sse = await generate(relay.baseUrl, '/v1beta/models/gpt-4o-mini:streamGenerateContent?alt=sse', ask, headers);
    expect(sse.contentType).toContain('text/event-stream');
    const events = parseSseText(sse.text).map(
      (event) => JSON.parse(event.data) as { candidates: { content: { parts: { text?: string }[] }; finishReason?: string }[]; usageMetadata?: Json },
    );
    expect(events.map((event) => event.candidates[0]?.content.parts.map((part) => part.text ?? '').join('')).join('')).toBe('Hello from the fake upstream.');
    expect(events.at(-1)).toMatchObject({ candidates: [{ finishReason: 'STOP' }], usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 6 } });

    const array = await generate(relay.baseUrl, '/v1beta/models/gpt-4o-mini:streamGenerateContent', ask, headers);
    expect(array.contentType).toContain('application/json');
    const items = JSON.parse(array.text) as typeof events;
    expect({ ...items.at(-1), responseId: '' }).toEqual({ ...events.at(-1), responseId: '' });

    // gpt-4o-mini: (12 + 6 × 4) × 0.075 = 2.7 → 3, for each of the three answers.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => log.quota)).toEqual([3, 3, 3]);
    expect(state.logs.map((log) => JSON.parse(log.other ?? '{}').request_path)).toEqual([
      '/v1beta/models/gpt-4o-mini:generateContent',
      '/v1beta/models/gpt-4o-mini:streamGenerateContent',
      '/v1beta/models/gpt-4o-mini:streamGenerateContent',
    ]);
  });

  it('embeds through embedContent and batchEmbedContents on any channel', async () => {
    await relay.channel({ type: 1, key: 'openai-embed-entry', baseUrl: openai.baseUrl, models: ['text-embedding-3-small'] });
    await relay.channel({ type: 24, key: 'gemini-embed-entry', baseUrl: gemini.url, models: ['text-embedding-004'] });
    const token = await relay.token();
    const single = await generate(relay.baseUrl, `/v1beta/models/text-embedding-3-small:embedContent?key=${token.apiKey}`, {
      content: { parts: [{ text: 'hello' }] },
    });
    expect(single.status).toBe(200);
    const embedding = (JSON.parse(single.text) as { embedding: { values: number[] } }).embedding;
    expect(Array.isArray(embedding.values) && embedding.values.length > 0).toBe(true);
    expect(openai.requests.at(-1)?.body).toMatchObject({ model: 'text-embedding-3-small', input: 'hello' });
    const batch = await generate(relay.baseUrl, `/v1beta/models/text-embedding-004:batchEmbedContents?key=${token.apiKey}`, {
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] } },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] } },
      ],
    });
    expect(JSON.parse(batch.text)).toEqual({ embeddings: [{ values: [0, 0.5, -0.25] }, { values: [1, 0.5, -0.25] }] });
    const state = await token.state([]);
    expect(state.logs.map((log) => JSON.parse(log.other ?? '{}').request_path)).toEqual([
      '/v1beta/models/text-embedding-3-small:embedContent',
      '/v1beta/models/text-embedding-004:batchEmbedContents',
    ]);
  });

  it('refuses a whole answer with sensitive words in Google error format, and charges it', async () => {
    const channelId = await relay.channel({ type: 1, key: 'openai-gemini-sensitive', baseUrl: openai.baseUrl, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const options = relay.testApp.context.options;
    await options.set('CheckSensitiveEnabled', 'true');
    await options.set('CheckSensitiveOnCompletionEnabled', 'true');
    await options.set('SensitiveWords', 'fake upstream');
    const refused = await generate(relay.baseUrl, `/v1beta/models/gpt-4o-mini:generateContent?key=${token.apiKey}`, ask);
    await options.set('CheckSensitiveOnCompletionEnabled', 'false');
    await options.set('CheckSensitiveEnabled', 'false');
    await options.set('SensitiveWords', 'test_sensitive');

    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text)).toEqual({
      error: { code: 400, message: expect.stringMatching(/^Sensitive words detected \(request id: \w+\)$/), status: 'INVALID_ARGUMENT' },
    });
    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(1);
    // gpt-4o-mini: (12 + 6 × 4) × 0.075 = 2.7 → 3: the upstream answered, so the answer is charged.
    expect(state.logs[0]).toMatchObject({ quota: 3, completion_tokens: 6 });
    expect(JSON.parse(state.logs[0]?.other ?? '{}').end_reason).toBe('sensitive');
    expect(state.token.used_quota).toBe(3);
  });

  it('answers refusals in Google error format', async () => {
    const missingKey = await generate(relay.baseUrl, '/v1beta/models/gpt-4o-mini:generateContent', ask);
    expect(missingKey.status).toBe(401);
    expect(JSON.parse(missingKey.text)).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
    const token = await relay.token();
    const badBody = await generate(relay.baseUrl, `/v1beta/models/gpt-4o-mini:generateContent?key=${token.apiKey}`, { contents: 'nope' });
    expect(JSON.parse(badBody.text)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    const noChannel = await generate(relay.baseUrl, `/v1beta/models/gemini-1.5-pro:generateContent?key=${token.apiKey}`, ask);
    expect(noChannel.status).toBe(503);
    expect(JSON.parse(noChannel.text)).toMatchObject({ error: { code: 503, status: 'UNAVAILABLE' } });
  });
});
