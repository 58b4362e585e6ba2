import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { fakeClaudeKeys, startFakeClaude } from './testing/fake-claude.ts';
import type { FakeServer } from './testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from './testing/native-relay.ts';

const model = 'claude-sonnet-4-20250514';
const weatherTool = { type: 'function' as const, function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { location: { type: 'string' } } } } };
// The recorded tool-use answer: 472 plain prompt tokens, 3,000 cache reads, 1,200 cache writes, 89 out.
// Ratio 1.5, completion 5, cache read 0.1, cache write 1.25: (472 + 300 + 1500 + 445) × 1.5 = 4075.5.
const toolUseCharge = 4076;

describe.each(testDatabases())('Claude channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeClaude();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client with tool calls and usage, and bills cache reads and writes at their ratios', async () => {
    const channelId = await relay.channel({ type: 14, key: 'claude-good', baseUrl: fake.url, models: [model] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in San Francisco?' },
      ],
      tools: [weatherTool],
    });
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answer.choices[0]?.message.tool_calls).toEqual([{ id: 'toolu_01A09q90qw90lq917835lq9', type: 'function', function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' } }]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 4672, completion_tokens: 89, prompt_tokens_details: { cached_tokens: 3000 } });

    const sent = fake.requests.at(-1);
    expect(sent?.headers['x-api-key']).toBe('claude-good');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toMatchObject({ model, max_tokens: 8192, system: [{ type: 'text', text: 'You are terse.' }], tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }] });

    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ quota: toolUseCharge, prompt_tokens: 4672, completion_tokens: 89, channel_id: channelId, model_name: model });
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({ cache_tokens: 3000, cache_ratio: 0.1, cache_creation_tokens: 1200, cache_creation_ratio: 1.25, model_ratio: 1.5, completion_ratio: 5 });
    expect(state.token.remain_quota).toBe(10_000_000 - toolUseCharge);
    expect(state.channels[0]?.used_quota).toBe(toolUseCharge);
  });

  it('streams text, then tool-call deltas, with usage at the end', async () => {
    const channelId = await relay.channel({ type: 14, key: 'claude-stream', baseUrl: fake.url, models: [model] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'Weather?' }], tools: [weatherTool], stream: true, stream_options: { include_usage: true } });
    let content = '';
    let argumentsText = '';
    let name = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      content += choice?.delta.content ?? '';
      for (const call of choice?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        argumentsText += call.function?.arguments ?? '';
      }
      finish = choice?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe("Okay, let's check the weather.");
    expect(name).toBe('get_weather');
    expect(JSON.parse(argumentsText)).toEqual({ location: 'San Francisco, CA' });
    expect(finish).toBe('tool_calls');
    expect(usage).toMatchObject({ prompt_tokens: 4672, completion_tokens: 89 });
    expect(fake.requests.at(-1)?.body?.stream).toBe(true);
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: toolUseCharge, is_stream: expect.anything() });
  });

  it('disables a channel whose key Anthropic rejects and answers from the next one', async () => {
    const failing = await relay.channel({ type: 14, key: fakeClaudeKeys.invalid, baseUrl: fake.url, models: ['claude-3-7-sonnet-20250219'], priority: 10 });
    const backup = await relay.channel({ type: 14, key: 'claude-backup', baseUrl: fake.url, models: ['claude-3-7-sonnet-20250219'], priority: 0 });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'claude-3-7-sonnet-20250219', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]?.message.content).toBe('Hi! My name is Claude.');
    await relay.waitForStatus(failing, ChannelStatus.autoDisabled);
    const state = await token.state([failing, backup]);
    expect(state.channels.find((channel) => channel.id === failing)?.status).toBe(ChannelStatus.autoDisabled);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, prompt_tokens: 2095, completion_tokens: 503 });
  });

  it('retries a rate-limited channel elsewhere and keeps it enabled', async () => {
    const limited = await relay.channel({ type: 14, key: fakeClaudeKeys.rateLimited, baseUrl: fake.url, models: ['claude-3-5-haiku-20241022'], priority: 10 });
    const backup = await relay.channel({ type: 14, key: 'claude-backup-2', baseUrl: fake.url, models: ['claude-3-5-haiku-20241022'], priority: 0 });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'claude-3-5-haiku-20241022', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]?.message.content).toBe('Hi! My name is Claude.');
    const state = await token.state([limited, backup]);
    expect(state.channels.find((channel) => channel.id === limited)?.status).toBe(ChannelStatus.enabled);
    expect(state.logs[0]).toMatchObject({ channel_id: backup });
  });

  it('answers an Anthropic error as an OpenAI error when no channel is left', async () => {
    await relay.channel({ type: 14, key: fakeClaudeKeys.rateLimited, baseUrl: fake.url, models: ['claude-opus-4-20250514'] });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'claude-opus-4-20250514', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; error: { type: string; message: string } };
    expect(error).toMatchObject({ status: 429, error: { type: 'rate_limit_error' } });
    expect(error.error.message).toContain('per-minute rate limit');
  });
});
