import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { fakeClaudeKeys, startFakeClaude } from './testing/fake-claude.ts';
import type { FakeServer } from './testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from './testing/native-relay.ts';

const model = 'claude-sonnet-4-20250514';
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};
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
    expect(answer.choices[0]?.message.tool_calls).toEqual([
      {
        id: 'toolu_01A09q90qw90lq917835lq9',
        type: 'function',
        function: { name: 'get_weather', arguments: '{"location":"San Francisco, CA","unit":"celsius"}' },
      },
    ]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 4672, completion_tokens: 89, prompt_tokens_details: { cached_tokens: 3000 } });

    const sent = fake.requests.at(-1);
    expect(sent?.headers['x-api-key']).toBe('claude-good');
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toMatchObject({
      model,
      max_tokens: 8192,
      system: [{ type: 'text', text: 'You are terse.' }],
      tools: [{ name: 'get_weather', input_schema: weatherTool.function.parameters }],
    });

    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ quota: toolUseCharge, prompt_tokens: 4672, completion_tokens: 89, channel_id: channelId, model_name: model });
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({
      cache_tokens: 3000,
      cache_ratio: 0.1,
      cache_creation_tokens: 1200,
      cache_creation_ratio: 1.25,
      model_ratio: 1.5,
      completion_ratio: 5,
    });
    expect(state.token.remain_quota).toBe(10_000_000 - toolUseCharge);
    expect(state.channels[0]?.used_quota).toBe(toolUseCharge);
  });

  it('streams text, then tool-call deltas, with usage at the end', async () => {
    const channelId = await relay.channel({ type: 14, key: 'claude-stream', baseUrl: fake.url, models: [model] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Weather?' }],
      tools: [weatherTool],
      stream: true,
      stream_options: { include_usage: true },
    });
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

  it('bills 1-hour cache writes at twice the input price, streamed and not', async () => {
    const channelId = await relay.channel({ type: 14, key: 'claude-cache-1h', baseUrl: fake.url, models: ['claude-3-5-sonnet-20241022'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    // cache_control on a content part is Anthropic's prompt-caching extension of OpenAI's format.
    const messages = [
      { role: 'system', content: [{ type: 'text', text: 'The whole contract…', cache_control: { type: 'ephemeral', ttl: '1h' } }] },
      { role: 'user', content: 'How can it be terminated?' },
    ] as OpenAI.ChatCompletionMessageParam[];
    const answer = await client.chat.completions.create({ model: 'claude-3-5-sonnet-20241022', messages });
    expect(answer.usage).toMatchObject({
      prompt_tokens: 2100,
      completion_tokens: 51,
      prompt_tokens_details: { cached_tokens: 0, cache_creation_tokens: 2000 },
    });
    expect(fake.requests.at(-1)?.body?.system).toEqual([{ type: 'text', text: 'The whole contract…', cache_control: { type: 'ephemeral', ttl: '1h' } }]);
    const stream = await client.chat.completions.create({ model: 'claude-3-5-sonnet-20241022', messages, stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe("The contract's termination clause allows 30 days' notice.");
    // Ratio 1.5, completion 5, write 1.25 (5 min) and 2 (1 h): (100 + 500 × 1.25 + 1500 × 2 + 51 × 5) × 1.5 = 5970.
    // At the 5-minute ratio alone it would have been (100 + 2000 × 1.25 + 255) × 1.5 = 4282.5.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [5970, 2100, 51],
      [5970, 2100, 51],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 2 * 5970);
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({
      cache_creation_tokens: 2000,
      cache_creation_ratio: 1.25,
      cache_creation_tokens_1h: 1500,
      cache_creation_ratio_1h: 2,
    });
  });

  it('disables a channel whose key Anthropic rejects and answers from the next one', async () => {
    const failing = await relay.channel({ type: 14, key: fakeClaudeKeys.invalid, baseUrl: fake.url, models: ['claude-3-7-sonnet-20250219'], priority: 10 });
    const backup = await relay.channel({ type: 14, key: 'claude-backup', baseUrl: fake.url, models: ['claude-3-7-sonnet-20250219'], priority: 0 });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-3-7-sonnet-20250219',
      messages: [{ role: 'user', content: 'Hi' }],
    });
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
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'claude-3-5-haiku-20241022',
      messages: [{ role: 'user', content: 'Hi' }],
    });
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

  it('sends newer models temperature without top_p, and thinking models neither temperature nor a low top_p', async () => {
    await relay.channel({
      type: 14,
      key: 'claude-sampling',
      baseUrl: fake.url,
      models: ['claude-opus-4-20250514'],
      priority: 10,
      modelMapping: { 'claude-opus-4-20250514': 'claude-sonnet-4-5-20250929' },
    });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({
      model: 'claude-opus-4-20250514',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.4,
      top_p: 0.8,
    });
    expect(answer.choices[0]?.message.content).toBe('Hi! My name is Claude.');
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: 'claude-sonnet-4-5-20250929', temperature: 0.4 });
    expect(fake.requests.at(-1)?.body).not.toHaveProperty('top_p');

    await client.chat.completions.create({
      model: 'claude-opus-4-20250514',
      messages: [{ role: 'user', content: 'Hi' }],
      temperature: 0.4,
      top_p: 0.9,
      max_tokens: 4000,
      reasoning_effort: 'low',
    });
    const thinking = fake.requests.at(-1)?.body;
    expect(thinking).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    expect(thinking).not.toHaveProperty('temperature');
    expect(thinking).not.toHaveProperty('top_p');
  });
});
