import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { fakeCozeBotId, fakeCozeKeys, startFakeCoze, type FakeCoze } from './testing/fake-coze.ts';

// Priced at ratio 1, completion ratio 1: a chat costs Coze's token_count, 5878 + 766 = 6644.
const models = ['coze-bot', 'coze-auth', 'coze-limit', `bot-${fakeCozeBotId}`];
const answer = '2024 年 10 月 1 日是星期二。';

describe.each(testDatabases())('Coze channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeCoze;

  beforeAll(async () => {
    fake = await startFakeCoze();
    relay = await startNativeRelay(database);
    const ratios = relay.testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, ...Object.fromEntries(models.map((model) => [model, 1])) }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client streamed and, by polling, not streamed, with Coze usage and charges', async () => {
    const channelId = await relay.channel({ type: 49, key: 'pat_good', baseUrl: fake.url, models: ['coze-bot'], other: fakeCozeBotId });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const stream = await client.chat.completions.create({
      model: 'coze-bot',
      messages: [{ role: 'user', content: '2024 年 10 月 1 日是星期几' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe(answer);
    expect(usage).toMatchObject({ prompt_tokens: 5878, completion_tokens: 766 });
    const sent = fake.requests.at(-1);
    expect(sent?.headers.authorization).toBe('Bearer pat_good');
    expect(sent?.body).toEqual({
      bot_id: fakeCozeBotId,
      user_id: 'switchboard',
      stream: true,
      additional_messages: [{ role: 'user', type: 'question', content: '2024 年 10 月 1 日是星期几', content_type: 'text' }],
    });

    const whole = await client.chat.completions.create({ model: 'coze-bot', messages: [{ role: 'user', content: '2024 年 10 月 1 日是星期几' }] });
    expect(whole.choices[0]?.message.content).toBe(answer);
    expect(whole.usage).toMatchObject({ prompt_tokens: 5878, completion_tokens: 766 });
    expect(fake.requests.slice(-3).map((request) => request.path)).toEqual(['/v3/chat', '/v3/chat/retrieve', '/v3/chat/message/list']);

    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [6644, 5878, 766],
      [6644, 5878, 766],
    ]);
    expect(state.channels[0]?.used_quota).toBe(2 * 6644);
  });

  it('takes the bot from a bot-<id> model name when the channel names none', async () => {
    await relay.channel({ type: 49, key: 'pat_model_bot', baseUrl: fake.url, models: [`bot-${fakeCozeBotId}`] });
    const token = await relay.token();
    const whole = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: `bot-${fakeCozeBotId}`,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(whole.choices[0]?.message.content).toBe(answer);
    expect(fake.requests.find((request) => request.path === '/v3/chat' && request.headers.authorization === 'Bearer pat_model_bot')?.body?.bot_id).toBe(
      fakeCozeBotId,
    );
  });

  it('disables a channel whose token Coze rejects (an HTTP 200 with code 4100) and answers from the next one', async () => {
    const failing = await relay.channel({ type: 49, key: fakeCozeKeys.invalid, baseUrl: fake.url, models: ['coze-auth'], other: fakeCozeBotId, priority: 10 });
    const backup = await relay.channel({ type: 49, key: 'pat_backup', baseUrl: fake.url, models: ['coze-auth'], other: fakeCozeBotId, priority: 0 });
    const token = await relay.token();
    const whole = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'coze-auth', messages: [{ role: 'user', content: 'Hi' }] });
    expect(whole.choices[0]?.message.content).toBe(answer);
    await relay.waitForStatus(failing, ChannelStatus.autoDisabled);
    const state = await token.state([backup]);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, quota: 6644 });
  });

  it('retries a rate-limited channel elsewhere, streamed, and keeps it enabled', async () => {
    const limited = await relay.channel({
      type: 49,
      key: fakeCozeKeys.rateLimited,
      baseUrl: fake.url,
      models: ['coze-limit'],
      other: fakeCozeBotId,
      priority: 10,
    });
    const backup = await relay.channel({ type: 49, key: 'pat_backup_2', baseUrl: fake.url, models: ['coze-limit'], other: fakeCozeBotId, priority: 0 });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'coze-limit',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
    });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe(answer);
    const state = await token.state([limited, backup]);
    expect(state.channels.find((channel) => channel.id === limited)?.status).toBe(ChannelStatus.enabled);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, quota: 6644 });
  });
});
