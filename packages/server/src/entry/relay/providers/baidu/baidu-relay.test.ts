import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { fakeBaiduKeys, startFakeBaidu, type FakeBaidu } from './testing/fake-baidu.ts';

// Prices set for these tests: ERNIE-4.0-8K ratio 2 with completion ratio 3, ERNIE-3.5-8K 1 and 1, Embedding-V1 0.5.
// The recorded answer: 4 prompt, 36 completion tokens → (4 + 36 × 3) × 2 = 224. The stream: 5 and 13 → (5 + 39) × 2 = 88.
const answerCharge = 224;
const streamCharge = 88;

describe.each(testDatabases())('Baidu ERNIE v1 channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeBaidu;

  beforeAll(async () => {
    fake = await startFakeBaidu();
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    const modelRatio = options.getJson<Record<string, number>>('ModelRatio') ?? {};
    const completionRatio = options.getJson<Record<string, number>>('CompletionRatio') ?? {};
    await options.set('ModelRatio', JSON.stringify({ ...modelRatio, 'ERNIE-4.0-8K': 2, 'ERNIE-3.5-8K': 1, 'Embedding-V1': 0.5 }));
    await options.set('CompletionRatio', JSON.stringify({ ...completionRatio, 'ERNIE-4.0-8K': 3, 'ERNIE-3.5-8K': 1 }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client with the converted answer and usage, charged exactly', async () => {
    const channelId = await relay.channel({ type: 15, key: fakeBaiduKeys.good, baseUrl: fake.url, models: ['ERNIE-4.0-8K'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'ERNIE-4.0-8K',
      messages: [
        { role: 'system', content: '你是一个助手' },
        { role: 'user', content: '你好' },
      ],
      temperature: 0.5,
    });
    expect(answer.choices[0]?.message.content).toContain('我是文心一言');
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    expect(answer.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 36, total_tokens: 40 });

    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(sent?.query.get('access_token')).toMatch(/^24\./);
    expect(sent?.body).toEqual({ messages: [{ role: 'user', content: '你好' }], system: '你是一个助手', temperature: 0.5 });

    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: answerCharge, prompt_tokens: 4, completion_tokens: 36, channel_id: channelId, model_name: 'ERNIE-4.0-8K' });
    expect(state.token.remain_quota).toBe(10_000_000 - answerCharge);
    expect(state.channels[0]?.used_quota).toBe(answerCharge);
  });

  it('streams the answer with usage at the end, charged exactly', async () => {
    const channelId = await relay.channel({ type: 15, key: fakeBaiduKeys.good, baseUrl: fake.url, models: ['ERNIE-4.0-8K'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'ERNIE-4.0-8K',
      messages: [{ role: 'user', content: '你好' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let content = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe('您好，我是文心一言。有什么可以帮您？');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 13 });
    expect(fake.requests.at(-1)?.body?.stream).toBe(true);
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: streamCharge, prompt_tokens: 5, completion_tokens: 13 });
  });

  it('answers embeddings with Baidu’s vectors and usage', async () => {
    const channelId = await relay.channel({ type: 15, key: fakeBaiduKeys.good, baseUrl: fake.url, models: ['Embedding-V1'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).embeddings.create({
      model: 'Embedding-V1',
      input: ['你好', '世界'],
      encoding_format: 'float',
    });
    expect(answer.data.map((item) => item.embedding.length)).toEqual([3, 3]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 12, total_tokens: 12 });
    expect(fake.requests.at(-1)?.path).toBe('/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1');
    expect(fake.requests.at(-1)?.body).toEqual({ input: ['你好', '世界'] });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 6, prompt_tokens: 12 });
  });

  it('surfaces Baidu’s refusal of an unsafe input as a content-filter stop', async () => {
    await relay.channel({ type: 15, key: fakeBaiduKeys.good, baseUrl: fake.url, models: ['ERNIE-4.0-8K'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'ERNIE-4.0-8K',
      messages: [{ role: 'user', content: 'something unsafe' }],
    });
    expect(answer.choices[0]).toMatchObject({ finish_reason: 'content_filter', message: { content: '作为一个人工智能语言模型，我无法回答这个问题。' } });
  });

  it('disables a channel whose API key Baidu does not know and answers from the next one', async () => {
    const seed = { type: 15, baseUrl: fake.url, model: 'ERNIE-3.5-8K', failingKey: fakeBaiduKeys.unknown, backupKey: fakeBaiduKeys.backup };
    const run = await callPastFailingChannel(relay, seed, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('文心一言');
    await expectServedByBackup(relay, run, 'disabled', { quota: 40 });
  });

  it('retries a channel over its QPS limit on another one and keeps it enabled', async () => {
    const seed = { type: 15, baseUrl: fake.url, model: 'ERNIE-3.5-8K', failingKey: fakeBaiduKeys.rateLimited, backupKey: fakeBaiduKeys.backup };
    const run = await callPastFailingChannel(relay, { ...seed, priorities: [20, 15] }, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('文心一言');
    await expectServedByBackup(relay, run, 'kept');
  });

  it('answers Baidu’s own message when it refuses a request', async () => {
    await relay.channel({ type: 15, key: fakeBaiduKeys.good, baseUrl: fake.url, models: ['ERNIE-4.0-8K'] });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({
        model: 'ERNIE-4.0-8K',
        messages: [
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ],
      })
      .catch((caught: unknown) => caught)) as { status: number; error: { message: string; code: string } };
    expect(error).toMatchObject({ status: 400, error: { code: 'baidu_336003' } });
    expect(error.error.message).toContain('the length of messages must be an odd number');
  });

  it('serves the official Anthropic client on /v1/messages from a Baidu channel, streamed and not, charged exactly', async () => {
    await relay.channel({ type: 15, key: fakeBaiduKeys.good, baseUrl: fake.url, models: ['ERNIE-4.0-8K'] });
    const token = await relay.token();
    const client = new Anthropic({ apiKey: token.apiKey, baseURL: relay.baseUrl, maxRetries: 0, timeout: 20_000 });
    const message = await client.messages.create({
      model: 'ERNIE-4.0-8K',
      max_tokens: 256,
      system: '你是一个助手',
      messages: [{ role: 'user', content: '你好' }],
    });
    expect(message.content).toEqual([
      { type: 'text', text: '您好，我是文心一言，英文名是ERNIE Bot。我能够与人对话互动，回答问题，协助创作，高效便捷地帮助人们获取信息、知识和灵感。' },
    ]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 4, output_tokens: 36 });
    // Claude's system prompt becomes Baidu's own `system` field, not a message (turns must alternate).
    expect(fake.requests.at(-1)?.body).toMatchObject({ messages: [{ role: 'user', content: '你好' }], system: '你是一个助手' });

    const stream = client.messages.stream({ model: 'ERNIE-4.0-8K', max_tokens: 256, messages: [{ role: 'user', content: '你好' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe('您好，我是文心一言。有什么可以帮您？');
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ output_tokens: 13 });
    expect(fake.requests.at(-1)?.body?.stream).toBe(true);

    const state = await token.state([]);
    const charges = state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens]);
    expect(charges.sort((left, right) => (left[0] ?? 0) - (right[0] ?? 0))).toEqual([
      [streamCharge, 5, 13],
      [answerCharge, 4, 36],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - answerCharge - streamCharge);
  });
});
