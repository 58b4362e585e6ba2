import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { fakeDifyKeys, fakeUploadId, startFakeDify } from './testing/fake-dify.ts';

// The app's model name routes only; priced at ratio 1, completion ratio 1: a charge is the app's token total.
const models = ['dify-app', 'dify-agent', 'dify-auth', 'dify-limit', 'dify-quota'];

describe.each(testDatabases())('Dify channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeDify();
    relay = await startNativeRelay(database);
    const ratios = relay.testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, ...Object.fromEntries(models.map((model) => [model, 1])) }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client blocking and streamed, billing the app usage of message_end', async () => {
    const channelId = await relay.channel({ type: 37, key: 'app-good', baseUrl: fake.url, models: ['dify-app'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const whole = await client.chat.completions.create({
      model: 'dify-app',
      messages: [{ role: 'user', content: 'What are the specs of the iPhone 13 Pro Max?' }],
    });
    expect(whole.choices[0]?.message.content).toContain('iPhone 13 Pro Max specs');
    expect(whole.usage).toMatchObject({ prompt_tokens: 1033, completion_tokens: 128 });
    expect((whole as unknown as { conversation_id: string }).conversation_id).toBe('45701982-8118-4bc5-8e9b-64562b4555f2');
    const sent = fake.requests.at(-1);
    expect(sent?.headers.authorization).toBe('Bearer app-good');
    expect(sent?.body).toEqual({
      inputs: {},
      query: 'What are the specs of the iPhone 13 Pro Max?',
      response_mode: 'blocking',
      user: 'switchboard',
      auto_generate_name: false,
      files: [],
    });

    const stream = await client.chat.completions.create({
      model: 'dify-app',
      messages: [{ role: 'user', content: 'Hello' }],
      user: 'abc-123',
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe(" I'm glad to meet you!");
    expect(usage).toMatchObject({ prompt_tokens: 1033, completion_tokens: 135 });
    expect(fake.requests.at(-1)?.body).toMatchObject({ response_mode: 'streaming', user: 'abc-123' });

    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [1161, 1033, 128],
      [1168, 1033, 135],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 1161 - 1168);
  });

  it('uploads an inline image to the app first and references it, then streams an agent answer', async () => {
    await relay.channel({ type: 37, key: 'app-agent', baseUrl: fake.url, models: ['dify-agent'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'dify-agent',
      user: 'abc-123',
      stream: true,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Draw her like this' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
      ],
    });
    let content = '';
    let reasoning = '';
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? '';
    }
    expect(content).toBe('I have created an image of a cute Japanese anime girl with white hair.');
    expect(reasoning).toContain('Tool dalle3');
    const [upload, chat] = fake.requests.slice(-2);
    expect(upload?.path).toBe('/v1/files/upload');
    expect(upload?.headers.authorization).toBe('Bearer app-agent');
    expect(String(upload?.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    expect(chat?.body?.files).toEqual([{ type: 'image', transfer_mode: 'local_file', upload_file_id: fakeUploadId }]);
    const state = await token.state([]);
    expect(state.logs[0]).toMatchObject({ quota: 1507, prompt_tokens: 1440, completion_tokens: 67 });
  });

  it.each([
    ['an invalid app key', fakeDifyKeys.invalid, 'dify-auth'],
    ['an app without model quota', fakeDifyKeys.quotaExhausted, 'dify-quota'],
  ])('disables a channel with %s and answers from the next one', async (_case, key, model) => {
    const failing = await relay.channel({ type: 37, key, baseUrl: fake.url, models: [model], priority: 10 });
    const backup = await relay.channel({ type: 37, key: `app-backup-${model}`, baseUrl: fake.url, models: [model], priority: 0 });
    const token = await relay.token();
    const reply = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model, messages: [{ role: 'user', content: 'Hi' }] });
    expect(reply.choices[0]?.message.content).toContain('iPhone 13 Pro Max specs');
    await relay.waitForStatus(failing, ChannelStatus.autoDisabled);
    const state = await token.state([backup]);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, quota: 1161 });
  });

  it('retries a rate-limited app elsewhere and keeps it enabled', async () => {
    const limited = await relay.channel({ type: 37, key: fakeDifyKeys.rateLimited, baseUrl: fake.url, models: ['dify-limit'], priority: 10 });
    const backup = await relay.channel({ type: 37, key: 'app-backup-2', baseUrl: fake.url, models: ['dify-limit'], priority: 0 });
    const token = await relay.token();
    const reply = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'dify-limit', messages: [{ role: 'user', content: 'Hi' }] });
    expect(reply.choices[0]?.message.content).toContain('iPhone 13 Pro Max specs');
    const state = await token.state([limited, backup]);
    expect(state.channels.find((channel) => channel.id === limited)?.status).toBe(ChannelStatus.enabled);
    expect(state.logs[0]).toMatchObject({ channel_id: backup });
  });
});
