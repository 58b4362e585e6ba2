import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { fakeGeminiKeys, startFakeGemini } from './testing/fake-gemini.ts';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

describe.each(testDatabases())('Gemini channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeGemini();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client with a function call, thinking and cached tokens, charged exactly', async () => {
    const channelId = await relay.channel({ type: 24, key: 'gemini-good', baseUrl: fake.url, models: ['gemini-2.5-flash'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [{ role: 'user', content: 'Weather in Boston?' }],
      tools: [weatherTool],
    });
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({
      type: 'function',
      function: { name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
    });
    expect(answer.usage).toMatchObject({ prompt_tokens: 1200, completion_tokens: 90, prompt_tokens_details: { cached_tokens: 1000 } });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/v1beta/models/gemini-2.5-flash:generateContent');
    expect(sent?.headers['x-goog-api-key']).toBe('gemini-good');
    expect(sent?.body).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'Weather in Boston?' }] }],
      tools: [{ functionDeclarations: [{ name: 'get_weather' }] }],
    });
    // Ratio 0.15, completion 8.33, no cache ratio for this model (1): (1200 + 90 × 8.33) × 0.15 = 292.46.
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 292, prompt_tokens: 1200, completion_tokens: 90 });
  });

  it('hands the thought signature to the openai client and sends it back on the next turn', async () => {
    await relay.channel({ type: 24, key: 'gemini-signature', baseUrl: fake.url, models: ['gemini-2.5-flash'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const question = { role: 'user' as const, content: 'Weather in Boston?' };
    const first = await client.chat.completions.create({ model: 'gemini-2.5-flash', messages: [question], tools: [weatherTool] });
    const call = first.choices[0]?.message.tool_calls?.[0];
    expect(call).toMatchObject({ extra_content: { google: { thought_signature: 'CiQB0e2Kb1' } } });
    if (!call) throw new Error('no tool call');
    await client.chat.completions.create({
      model: 'gemini-2.5-flash',
      messages: [question, { role: 'assistant', content: null, tool_calls: [call] }, { role: 'tool', tool_call_id: call.id, content: '{"temp":4}' }],
      tools: [weatherTool],
    });
    expect(fake.requests.at(-1)?.body?.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Boston?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { location: 'Boston, MA' } }, thoughtSignature: 'CiQB0e2Kb1' }] },
      { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 4 } } }] },
    ]);
  });

  it('streams text and whole function calls with usage, and serves embeddings', async () => {
    const channelId = await relay.channel({
      type: 24,
      key: 'gemini-stream',
      baseUrl: fake.url,
      models: ['gemini-2.0-flash', 'text-embedding-004'],
      other: 'v1',
    });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const stream = await client.chat.completions.create({
      model: 'gemini-2.0-flash',
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    const calls: string[] = [];
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) calls.push(`${call.index}:${call.function?.name}:${call.function?.arguments}`);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('The weather');
    expect(calls).toEqual(['0:get_weather:{"location":"Paris"}', '1:get_time:{"zone":"CET"}']);
    expect(usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 32 });
    expect(fake.requests.at(-1)?.url).toBe('/v1/models/gemini-2.0-flash:streamGenerateContent?alt=sse');

    const embeddings = await client.embeddings.create({ model: 'text-embedding-004', input: ['one', 'two'] });
    expect(embeddings.data.map((item) => item.embedding)).toEqual([
      [0, 0.5, -0.25],
      [1, 0.5, -0.25],
    ]);
    expect(fake.requests.at(-1)?.path).toBe('/v1/models/text-embedding-004:batchEmbedContents');
    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(2);
    // (9 + 32 × 4) × 0.05 = 6.85 → 7
    expect(state.logs[0]).toMatchObject({ quota: 7, prompt_tokens: 9, completion_tokens: 32 });
  });

  it('disables a channel whose API key Google rejects; leaves an exhausted one enabled', async () => {
    const invalid = await relay.channel({ type: 24, key: fakeGeminiKeys.invalid, baseUrl: fake.url, models: ['gemini-1.5-flash'], priority: 10 });
    const backup = await relay.channel({ type: 24, key: 'gemini-backup', baseUrl: fake.url, models: ['gemini-1.5-flash'], priority: 0 });
    const exhausted = await relay.channel({ type: 24, key: fakeGeminiKeys.exhausted, baseUrl: fake.url, models: ['gemini-1.5-pro'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({ model: 'gemini-1.5-flash', messages: [{ role: 'user', content: 'Explain AI' }] });
    expect(answer.choices[0]?.message.content).toBe('AI learns patterns from data to make predictions.');
    const error = await client.chat.completions
      .create({ model: 'gemini-1.5-pro', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught as { status: number; error: { type: string } });
    expect(error).toMatchObject({ status: 429, error: { type: 'RESOURCE_EXHAUSTED' } });
    await relay.waitForStatus(invalid, ChannelStatus.autoDisabled);
    const state = await token.state([invalid, backup, exhausted]);
    expect(state.channels.find((channel) => channel.id === invalid)?.status).toBe(ChannelStatus.autoDisabled);
    expect(state.channels.find((channel) => channel.id === exhausted)?.status).toBe(ChannelStatus.enabled);
    expect(state.logs[0]).toMatchObject({ channel_id: backup });
  });

  it('retries a rate-limited (429 RESOURCE_EXHAUSTED) Gemini channel on another one and keeps it enabled', async () => {
    const exhausted = await relay.channel({ type: 24, key: fakeGeminiKeys.exhausted, baseUrl: fake.url, models: ['gemini-2.5-pro'], priority: 10 });
    const backup = await relay.channel({ type: 24, key: 'gemini-backup-2', baseUrl: fake.url, models: ['gemini-2.5-pro'], priority: 0 });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gemini-2.5-pro',
      messages: [{ role: 'user', content: 'Explain AI' }],
    });
    expect(answer.choices[0]?.message.content).toBe('AI learns patterns from data to make predictions.');
    expect(fake.requests.slice(-2).map((request) => request.headers['x-goog-api-key'])).toEqual([fakeGeminiKeys.exhausted, 'gemini-backup-2']);
    const state = await token.state([exhausted, backup]);
    expect(state.channels.find((channel) => channel.id === exhausted)?.status).toBe(ChannelStatus.enabled);
    // gemini-2.5-pro: ratio 0.625, completion 8: (8 + 10 × 8) × 0.625 = 55.
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, quota: 55, content: `retry: ${exhausted}->${backup}` });
  });

  it('ends the stream with an error when Gemini fails mid-stream, and bills what was produced', async () => {
    const channelId = await relay.channel({ type: 24, key: fakeGeminiKeys.failsMidStream, baseUrl: fake.url, models: ['gemini-2.0-flash'], priority: 100 });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gemini-2.0-flash',
      messages: [{ role: 'user', content: 'Weather?' }],
      stream: true,
    });
    let content = '';
    const failure = await (async () => {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error);
    expect(content).toBe('The weather in Paris');
    expect(String(failure)).toContain('The model is overloaded');
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ channel_id: channelId, prompt_tokens: 9, completion_tokens: 4 });
  });
});
