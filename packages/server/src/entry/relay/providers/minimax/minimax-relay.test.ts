import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { fakeMinimaxInputRefusal, fakeMinimaxKeys, fakeMinimaxOutputRefusal, startFakeMinimax } from './testing/fake-minimax.ts';

const model = 'abab6.5s-chat';
const models = [model, 'abab6.5-chat', 'abab6-chat', 'abab5.5-chat', 'MiniMax-Text-01', 'embo-01'];
// Ratio 2, completion ratio 3. Whole answer: (71 + 12 × 3) × 2 = 214; stream: (71 + 9 × 3) × 2 = 196; embeddings: 14 × 2 = 28.
const answerCharge = 214;
const streamCharge = 196;
const embeddingsCharge = 28;

describe.each(testDatabases())('MiniMax channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeMinimax();
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    const ratios = Object.fromEntries(models.map((name) => [name, 2]));
    const completionRatios = Object.fromEntries(models.map((name) => [name, 3]));
    await options.set('ModelRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelRatio'), ...ratios }));
    await options.set('CompletionRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('CompletionRatio'), ...completionRatios }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('sends the OpenAI request to chatcompletion_v2 with the bearer key, answers with usage and bills exactly', async () => {
    const channelId = await relay.channel({ type: 35, key: fakeMinimaxKeys.good, baseUrl: fake.url, models: [model] });
    const token = await relay.token();
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'Hello' },
    ];
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model, messages, temperature: 0.3 });
    expect(answer.choices[0]?.message.content).toBe('你好！我是MiniMax开发的AI助手，有什么可以帮你的吗？');
    expect(answer.usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 12, total_tokens: 83 });
    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe('/v1/text/chatcompletion_v2');
    expect(sent?.headers['authorization']).toBe(`Bearer ${fakeMinimaxKeys.good}`);
    expect(sent?.body).toMatchObject({ model, messages, temperature: 0.3 });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: answerCharge, prompt_tokens: 71, completion_tokens: 12, channel_id: channelId, model_name: model });
    expect(state.token.remain_quota).toBe(10_000_000 - answerCharge);
    expect(state.channels[0]?.used_quota).toBe(answerCharge);
  });

  it('streams deltas the openai client reads to the end, with usage', async () => {
    const channelId = await relay.channel({ type: 35, key: fakeMinimaxKeys.good, baseUrl: fake.url, models: ['abab6.5-chat'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'abab6.5-chat',
      messages: [{ role: 'user', content: 'Hello' }],
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
    expect(content).toBe('你好！有什么可以帮你的吗？');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 71, completion_tokens: 9 });
    expect(fake.requests.at(-1)?.body).toMatchObject({ stream: true });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: streamCharge, prompt_tokens: 71, completion_tokens: 9 });
  });

  it('embeds through MiniMax embeddings and bills the reported tokens', async () => {
    const channelId = await relay.channel({ type: 35, key: fakeMinimaxKeys.good, baseUrl: fake.url, models: ['embo-01'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).embeddings.create({
      model: 'embo-01',
      input: ['first text', 'second text'],
      encoding_format: 'float',
    });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [-0.0123, 0.0456, 0.0789, -0.0321],
      [0.0212, -0.0334, 0.0656, 0.0101],
    ]);
    expect(answer.usage).toEqual({ prompt_tokens: 14, total_tokens: 14 });
    expect(fake.requests.at(-1)?.body).toEqual({ model: 'embo-01', texts: ['first text', 'second text'], type: 'db' });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: embeddingsCharge, prompt_tokens: 14, completion_tokens: 0 });
  });

  it('disables a channel whose key MiniMax refuses (HTTP 200, status 1004), streamed or not, and answers from the next', async () => {
    for (const stream of [false, true]) {
      const channelModel = stream ? 'abab6-chat' : 'abab5.5-chat';
      const refused = await relay.channel({ type: 35, key: `minimax-wrong-key-${stream}`, baseUrl: fake.url, models: [channelModel], priority: 10 });
      const backup = await relay.channel({ type: 35, key: fakeMinimaxKeys.backup, baseUrl: fake.url, models: [channelModel], priority: 0 });
      const token = await relay.token();
      const client = openaiClient(relay.baseUrl, token.apiKey);
      if (stream) {
        let content = '';
        for await (const chunk of await client.chat.completions.create({ model: channelModel, messages: [{ role: 'user', content: 'Hi' }], stream: true }))
          content += chunk.choices[0]?.delta.content ?? '';
        expect(content).toBe('你好！有什么可以帮你的吗？');
      } else {
        const answer = await client.chat.completions.create({ model: channelModel, messages: [{ role: 'user', content: 'Hi' }] });
        expect(answer.choices[0]?.message.content).toContain('MiniMax');
      }
      await relay.waitForStatus(refused, ChannelStatus.autoDisabled);
      const state = await token.state([refused, backup]);
      expect(state.logs[0]).toMatchObject({ channel_id: backup });
    }
  });

  it('retries a rate-limited channel elsewhere and keeps it enabled', async () => {
    const seed = { type: 35, baseUrl: fake.url, model: 'MiniMax-Text-01', failingKey: fakeMinimaxKeys.rateLimited, backupKey: fakeMinimaxKeys.good };
    const run = await callPastFailingChannel(relay, seed, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('MiniMax');
    await expectServedByBackup(relay, run, 'kept');
  });

  it('surfaces an input refusal as the caller error, streamed or not, and an output refusal midway as the stream error', async () => {
    const channelId = await relay.channel({ type: 35, key: fakeMinimaxKeys.good, baseUrl: fake.url, models: [model], priority: 50 });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    for (const stream of [false, true]) {
      const error = (await client.chat.completions
        .create({ model, messages: [{ role: 'user', content: fakeMinimaxInputRefusal }], stream })
        .catch((caught: unknown) => caught)) as { status: number; error: { message: string; code: string } };
      expect(error).toMatchObject({ status: 400, error: { code: '1026' } });
      expect(error.error.message).toContain('input new_sensitive');
    }
    const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: fakeMinimaxOutputRefusal }], stream: true });
    let content = '';
    const failure = await (async () => {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught as Error);
    expect(content).toBe('关于这个');
    expect(String(failure)).toContain('output new_sensitive');
    const state = await token.state([channelId]);
    expect(state.channels[0]?.status).toBe(ChannelStatus.enabled);
  });
});
