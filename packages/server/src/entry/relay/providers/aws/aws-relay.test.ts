import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { fakeBedrockAccessKeys, startFakeBedrock } from './testing/fake-bedrock.ts';

const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};
const goodKey = `${fakeBedrockAccessKeys.good}|fake-secret|us-west-2`;

describe.each(testDatabases())('AWS Bedrock Claude channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeBedrock();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('signs InvokeModel with SigV4 and answers with tool calls and cache usage, charged exactly', async () => {
    const channelId = await relay.channel({ type: 33, key: goodKey, baseUrl: fake.url, models: ['claude-sonnet-4-20250514'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [weatherTool],
    });
    expect(answer.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    expect(answer.usage).toMatchObject({ prompt_tokens: 4672, completion_tokens: 89 });
    const sent = fake.requests.at(-1);
    // Sonnet 4 is served through the US cross-region inference profile.
    expect(sent?.path).toBe('/model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/invoke');
    expect(String(sent?.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAFAKEGOOD\/\d{8}\/us-west-2\/bedrock\/aws4_request/);
    expect(sent?.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', max_tokens: 8192 });
    expect(sent?.body?.model).toBeUndefined();
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 4076, prompt_tokens: 4672, completion_tokens: 89 });
  });

  it('decodes the binary event stream into OpenAI chunks', async () => {
    const channelId = await relay.channel({ type: 33, key: goodKey, baseUrl: fake.url, models: ['claude-3-haiku-20240307'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-3-haiku-20240307',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('Hello!');
    expect(usage).toMatchObject({ prompt_tokens: 25, completion_tokens: 15 });
    expect(fake.requests.at(-1)?.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke-with-response-stream');
    // claude-3-haiku: ratio 0.125, completion 5: (25 + 75) × 0.125 = 12.5 → 13
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 13, prompt_tokens: 25, completion_tokens: 15 });
  });

  it('ends the stream with an error when Bedrock throws mid-stream, and bills what was produced', async () => {
    const channelId = await relay.channel({
      type: 33,
      key: `${fakeBedrockAccessKeys.failsMidStream}|secret|us-east-1`,
      baseUrl: fake.url,
      models: ['claude-3-5-sonnet-20241022'],
    });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-3-5-sonnet-20241022',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let content = '';
    const failure = await (async () => {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    })().catch((error: unknown) => error);
    expect(content).toBe('Hello');
    expect(String(failure)).toContain('Too many tokens');
    const state = await token.state([channelId]);
    // message_start reported 25 input tokens and 1 output token before the exception.
    expect(state.logs[0]).toMatchObject({ prompt_tokens: 25, channel_id: channelId });
  });

  it('disables a channel with rejected credentials and retries a throttled one elsewhere', async () => {
    const rejected = await relay.channel({
      type: 33,
      key: 'AKIAUNKNOWN|secret|us-east-1',
      baseUrl: fake.url,
      models: ['claude-3-5-haiku-20241022'],
      priority: 10,
    });
    const backup = await relay.channel({
      type: 33,
      key: goodKey,
      baseUrl: fake.url,
      models: ['claude-3-5-haiku-20241022', 'claude-3-7-sonnet-20250219'],
      priority: 0,
    });
    const throttled = await relay.channel({
      type: 33,
      key: `${fakeBedrockAccessKeys.throttled}|secret|eu-west-1`,
      baseUrl: fake.url,
      models: ['claude-3-7-sonnet-20250219'],
      priority: 10,
    });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    expect(
      (await client.chat.completions.create({ model: 'claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'Hi' }] })).choices[0]?.message.content,
    ).toBe('Hi! My name is Claude.');
    expect(
      (await client.chat.completions.create({ model: 'claude-3-7-sonnet-20250219', messages: [{ role: 'user', content: 'Hi' }] })).choices[0]?.message.content,
    ).toBe('Hi! My name is Claude.');
    expect(fake.requests.some((request) => request.path === '/model/eu.anthropic.claude-3-7-sonnet-20250219-v1%3A0/invoke')).toBe(true);
    await relay.waitForStatus(rejected, ChannelStatus.autoDisabled);
    const state = await token.state([rejected, backup, throttled]);
    expect(state.channels.find((channel) => channel.id === rejected)?.status).toBe(ChannelStatus.autoDisabled);
    expect(state.channels.find((channel) => channel.id === throttled)?.status).toBe(ChannelStatus.enabled);
    expect(state.logs.map((log) => log.channel_id)).toEqual([backup, backup]);
  });

  it('streams tool calls decoded from the event stream, with cache usage and the exact charge', async () => {
    const channelId = await relay.channel({ type: 33, key: goodKey, baseUrl: fake.url, models: ['claude-opus-4-20250514'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-opus-4-20250514',
      messages: [{ role: 'user', content: 'Weather in San Francisco?' }],
      tools: [weatherTool],
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
    expect(sent?.path).toBe('/model/us.anthropic.claude-opus-4-20250514-v1%3A0/invoke-with-response-stream');
    expect(sent?.body).toMatchObject({ anthropic_version: 'bedrock-2023-05-31', tools: [{ name: 'get_weather' }] });
    expect(sent?.body?.stream).toBeUndefined();
    // claude-opus-4: ratio 7.5, completion 5, cache read 0.1, cache write 1.25: (472 + 300 + 1500 + 445) × 7.5 = 20377.5 → 20378.
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 20378, prompt_tokens: 4672, completion_tokens: 89 });
  });

  it('caps max_tokens at 4,096 when a channel maps Claude 3 to its Bedrock id', async () => {
    await relay.channel({
      type: 33,
      key: goodKey,
      baseUrl: fake.url,
      models: ['claude-3-haiku-20240307'],
      priority: 10,
      modelMapping: { 'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0' },
    });
    const token = await relay.token();
    await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'claude-3-haiku-20240307', messages: [{ role: 'user', content: 'Hi' }] });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/model/anthropic.claude-3-haiku-20240307-v1%3A0/invoke');
    expect(sent?.body).toMatchObject({ max_tokens: 4096 });
  });
});
