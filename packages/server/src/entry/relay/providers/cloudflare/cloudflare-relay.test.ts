import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { httpTransport } from '../../transport/http-transport.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { cloudflareProvider } from './index.ts';
import { fakeCloudflareAccount, fakeCloudflareTokens, startFakeCloudflare } from './testing/fake-cloudflare.ts';

const chatModel = '@cf/meta/llama-3.1-8b-instruct';
const embeddingModel = '@cf/baai/bge-large-en-v1.5';
// The recorded answer: 17 prompt tokens, 15 completion tokens at ratio 2, completion ratio 3: (17 + 45) × 2 = 124.
const chatCharge = 124;
// The recorded embedding: 6 prompt tokens at ratio 0.5 = 3.
const embeddingCharge = 3;

describe.each(testDatabases())('Cloudflare Workers AI channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeCloudflare();
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    const ratios = {
      [chatModel]: 2,
      [embeddingModel]: 0.5,
      '@cf/qwen/qwen1.5-14b-chat-awq': 1,
      '@cf/google/gemma-7b-it': 1,
      '@cf/mistral/mistral-7b-instruct-v0.1': 1,
    };
    await options.set('ModelRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelRatio'), ...ratios }));
    await options.set('CompletionRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('CompletionRatio'), [chatModel]: 3 }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers chat, streamed and not, and embeddings from the account the channel names, and bills the usage', async () => {
    const channelId = await relay.channel({
      type: 39,
      key: fakeCloudflareTokens.good,
      baseUrl: fake.url,
      models: [chatModel, embeddingModel],
      other: fakeCloudflareAccount,
    });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({ model: chatModel, messages: [{ role: 'user', content: 'Make some robot noises' }] });
    expect(answer.choices[0]?.message.content).toBe('Beep boop! Whirr... *mechanical whirring* Bzzzt!');
    expect(answer.usage).toMatchObject({ prompt_tokens: 17, completion_tokens: 15 });
    expect(fake.requests.at(-1)).toMatchObject({
      path: `/client/v4/accounts/${fakeCloudflareAccount}/ai/v1/chat/completions`,
      headers: { authorization: `Bearer ${fakeCloudflareTokens.good}` },
    });

    const stream = await client.chat.completions.create({ model: chatModel, messages: [{ role: 'user', content: 'Make some robot noises' }], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe('Beep boop! Whirr... *mechanical whirring* Bzzzt!');
    // The relay asks for the usage chunk, which Cloudflare sends when asked.
    expect(fake.requests.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const embedding = await client.embeddings.create({ model: embeddingModel, input: 'I love matcha' });
    expect(embedding.data[0]?.embedding).toEqual([-0.0297, 0.0153, -0.0121, 0.0442]);
    expect(fake.requests.at(-1)?.path).toBe(`/client/v4/accounts/${fakeCloudflareAccount}/ai/v1/embeddings`);

    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.model_name, log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [chatModel, chatCharge, 17, 15],
      [chatModel, chatCharge, 17, 15],
      [embeddingModel, embeddingCharge, 6, 0],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 2 * chatCharge - embeddingCharge);
  });

  it('disables a channel whose token Cloudflare refuses and answers from the next one', async () => {
    const seed = { type: 39, baseUrl: fake.url, model: '@cf/qwen/qwen1.5-14b-chat-awq', other: fakeCloudflareAccount };
    const run = await callPastFailingChannel(relay, { ...seed, failingKey: 'cf-token-revoked', backupKey: fakeCloudflareTokens.backup }, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('Beep boop!');
    await expectServedByBackup(relay, run, 'disabled');
  });

  it('retries a channel out of capacity elsewhere and keeps it enabled', async () => {
    const seed = { type: 39, baseUrl: fake.url, model: '@cf/google/gemma-7b-it', other: fakeCloudflareAccount };
    const run = await callPastFailingChannel(relay, { ...seed, failingKey: fakeCloudflareTokens.outOfCapacity, backupKey: fakeCloudflareTokens.backup }, sayHi);
    await expectServedByBackup(relay, run, 'kept');
  });

  it('tells the caller when the channel names an account Cloudflare does not route to', async () => {
    await relay.channel({
      type: 39,
      key: fakeCloudflareTokens.good,
      baseUrl: fake.url,
      models: ['@cf/mistral/mistral-7b-instruct-v0.1'],
      other: 'not-an-account',
    });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: '@cf/mistral/mistral-7b-instruct-v0.1', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; error: { code: string; message: string } };
    expect(error.status).toBe(404);
    expect(error.error).toMatchObject({ code: '7003' });
    expect(error.error.message).toContain('perhaps your object identifier is invalid');
  });
});

describe('the Cloudflare model catalogue', () => {
  let fake: FakeServer;
  beforeAll(async () => {
    fake = await startFakeCloudflare();
  });
  afterAll(async () => {
    await fake.close();
  });

  const call = { transport: httpTransport, nowMs: 0, timeoutMs: 5_000 };
  const target = (other: string) => ({ id: 0, type: 39, baseUrl: fake.url, key: fakeCloudflareTokens.good, organization: '', other });

  it('lists the models of the account', async () => {
    await expect(cloudflareProvider.listModels?.(target(fakeCloudflareAccount), call)).resolves.toEqual([chatModel, embeddingModel]);
    expect(fake.requests.at(-1)?.url).toBe(`/client/v4/accounts/${fakeCloudflareAccount}/ai/models/search?per_page=100&page=1`);
  });

  it('says that the account id is needed when the channel has none', async () => {
    await expect(cloudflareProvider.listModels?.(target(''), call)).rejects.toThrow('the Cloudflare account id (the channel extra field) is needed');
  });
});
