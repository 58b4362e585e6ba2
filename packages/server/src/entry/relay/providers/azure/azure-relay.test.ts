import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { fakeAzureKeys, startFakeAzure } from './testing/fake-azure.ts';

const weatherTool = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather now',
    parameters: { type: 'object', properties: { location: { type: 'string' }, unit: { type: 'string' } } },
  },
};
// The recorded tool call: 67 prompt and 17 completion tokens on gpt-4o (ratio 1.25, completion 4):
// (67 + 17 × 4) × 1.25 = 168.75 → 169.
const toolCallCharge = 169;

describe.each(testDatabases())('Azure OpenAI channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeAzure();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('calls the deployment URL with the api-key header and the default API version', async () => {
    const channelId = await relay.channel({ type: 3, key: 'azure-good', baseUrl: fake.url, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]?.message.content).toBe('Hello from Azure');
    expect(fake.requests.at(-1)?.url).toBe('/openai/deployments/gpt-4o-mini/chat/completions?api-version=2023-06-01-preview');
    expect(fake.requests.at(-1)?.headers['api-key']).toBe('azure-good');
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();
    // gpt-4o-mini: ratio 0.075, completion 4: (19 + 40) × 0.075 = 4.425 → 4.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[4, 19, 10]]);
  });

  it('streams on the default API version without stream_options, counting usage locally', async () => {
    const channelId = await relay.channel({ type: 3, key: 'azure-old-version', baseUrl: fake.url, models: ['gpt-4.1-mini'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'gpt-4.1-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('Hello from Azure');
    const sent = fake.requests.at(-1);
    expect(sent?.query.get('api-version')).toBe('2023-06-01-preview');
    expect(sent?.body).toMatchObject({ stream: true });
    expect(sent?.body).not.toHaveProperty('stream_options');
    // Azure sent no usage: the caller still gets a usage chunk, counted locally.
    expect(usage).toEqual({ prompt_tokens: 1, completion_tokens: 3, total_tokens: 4 });
    // gpt-4.1-mini: ratio 0.2, completion 4; "Hi" is 1 token, "Hello from Azure" 3: (1 + 3 × 4) × 0.2 = 2.6 → 3.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[3, 1, 3]]);
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({ admin_info: { local_count_tokens: true } });
  });

  it('answers tool calls on a recent API version, streamed and not, with Azure usage and the exact charge', async () => {
    const channelId = await relay.channel({ type: 3, key: 'azure-tools', baseUrl: fake.url, models: ['gpt-4o'], other: '2024-10-21' });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather in Seattle?' }],
      tools: [weatherTool],
      tool_choice: 'auto',
    });
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answer.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_Xk2TqgB3pS8aYj1d4Lh0mNc7', type: 'function', function: { name: 'get_weather', arguments: '{"location":"Seattle, WA","unit":"celsius"}' } },
    ]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 67, completion_tokens: 17 });
    expect(fake.requests.at(-1)?.url).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');

    const stream = await client.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Weather in Seattle?' }],
      tools: [weatherTool],
      stream: true,
    });
    const calls = new Map<number, { id: string; name: string; arguments: string }>();
    let finish: string | null = null;
    let sawUsage = false;
    for await (const chunk of stream) {
      if (chunk.usage) sawUsage = true;
      const choice = chunk.choices[0];
      for (const call of choice?.delta?.tool_calls ?? []) {
        const entry = calls.get(call.index) ?? { id: '', name: '', arguments: '' };
        entry.id ||= call.id ?? '';
        entry.name += call.function?.name ?? '';
        entry.arguments += call.function?.arguments ?? '';
        calls.set(call.index, entry);
      }
      finish = choice?.finish_reason ?? finish;
    }
    expect([...calls.values()]).toEqual([
      { id: 'call_Xk2TqgB3pS8aYj1d4Lh0mNc7', name: 'get_weather', arguments: '{"location":"Seattle, WA","unit":"celsius"}' },
    ]);
    expect(finish).toBe('tool_calls');
    // The relay asked for usage (this version accepts it) and hid the usage chunk the caller did not ask for.
    expect(fake.requests.at(-1)?.body?.stream_options).toEqual({ include_usage: true });
    expect(sawUsage).toBe(false);
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [toolCallCharge, 67, 17],
      [toolCallCharge, 67, 17],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 2 * toolCallCharge);
  });

  it('passes on the 400 of an API version that predates tools', async () => {
    await relay.channel({ type: 3, key: 'azure-no-tools', baseUrl: fake.url, models: ['gpt-3.5-turbo'] });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: 'Weather?' }], tools: [weatherTool] })
      .catch((caught: unknown) => caught)) as { status: number; error: { message: string } };
    expect(error.status).toBe(400);
    expect(error.error.message).toContain('Unrecognized request argument supplied: tools');
  });

  it('takes the API version from the channel and disables a channel with a rejected key', async () => {
    const invalid = await relay.channel({ type: 3, key: fakeAzureKeys.invalid, baseUrl: fake.url, models: ['gpt-4o'], priority: 10 });
    const backup = await relay.channel({ type: 3, key: 'azure-backup', baseUrl: fake.url, models: ['gpt-4o'], priority: 0, other: '2024-10-21' });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]?.message.content).toBe('Hello from Azure');
    expect(fake.requests.at(-1)?.url).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    await relay.waitForStatus(invalid, ChannelStatus.autoDisabled);
    const state = await token.state([invalid, backup]);
    expect(state.channels.find((channel) => channel.id === invalid)?.status).toBe(ChannelStatus.autoDisabled);
  });

  it('retries a rate-limited Azure channel on another one and keeps it enabled', async () => {
    const seed = {
      type: 3,
      baseUrl: fake.url,
      model: 'gpt-4o-2024-08-06',
      failingKey: fakeAzureKeys.rateLimited,
      backupKey: 'azure-backup-2',
      other: '2024-10-21',
    };
    const run = await callPastFailingChannel(relay, seed, sayHi);
    expect(run.answer.choices[0]?.message.content).toBe('Hello from Azure');
    const sentTo = fake.requests.slice(-2).map((request) => request.headers['api-key']);
    expect(sentTo).toEqual([fakeAzureKeys.rateLimited, 'azure-backup-2']);
    await expectServedByBackup(relay, run, 'kept', { content: `retry: ${run.failing}->${run.backup}` });
    expect((await run.state()).logs).toHaveLength(1);
  });
});
