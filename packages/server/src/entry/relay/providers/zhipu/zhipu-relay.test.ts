import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { fakeZhipuKeys, fakeZhipuRefusedWord, fakeZhipuStreamErrorWord, startFakeZhipu, verifyZhipuToken } from './testing/fake-zhipu.ts';

const model = 'chatglm_turbo';
const models = [model, 'chatglm_pro', 'chatglm_pro_malformed', 'chatglm_std', 'chatglm_lite', 'chatglm_turbo_stream_error'];
// Ratio 2, completion ratio 3. invoke: (8 + 28 × 3) × 2 = 184; sse-invoke: (8 + 10 × 3) × 2 = 76.
const invokeCharge = 184;
const streamCharge = 76;

describe.each(testDatabases())('Zhipu v3 channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeZhipu();
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

  it('answers the openai client with usage, signs each call with a verifiable token and bills exactly', async () => {
    const channelId = await relay.channel({ type: 16, key: fakeZhipuKeys.good, baseUrl: fake.url, models: [model] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Who are you?' },
      ],
      temperature: 0.5,
    });
    expect(answer.choices[0]?.message.content).toBe('我是智谱清言，一个人工智能助手。\n很高兴见到你！');
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    expect(answer.usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 28, total_tokens: 36 });

    const sent = fake.requests.at(-1);
    expect(sent?.path).toBe(`/api/paas/v3/model-api/${model}/invoke`);
    expect(verifyZhipuToken(String(sent?.headers['authorization']), Date.now())).toBe('a1b2c3d4e5f6');
    expect(sent?.body).toEqual({
      prompt: [
        { role: 'user', content: 'You are terse.' },
        { role: 'assistant', content: 'Okay' },
        { role: 'user', content: 'Who are you?' },
      ],
      temperature: 0.5,
    });

    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ quota: invokeCharge, prompt_tokens: 8, completion_tokens: 28, channel_id: channelId, model_name: model });
    expect(state.token.remain_quota).toBe(10_000_000 - invokeCharge);
    expect(state.channels[0]?.used_quota).toBe(invokeCharge);
  });

  it('streams incremental text with usage at the end', async () => {
    const channelId = await relay.channel({ type: 16, key: fakeZhipuKeys.good, baseUrl: fake.url, models: [model] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model,
      messages: [{ role: 'user', content: 'Who are you?' }],
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
    expect(content).toBe('我是智谱清言，\n很高兴见到你。');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 });
    expect(fake.requests.at(-1)?.path).toBe(`/api/paas/v3/model-api/${model}/sse-invoke`);
    expect(fake.requests.at(-1)?.body).toMatchObject({ incremental: true });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: streamCharge, prompt_tokens: 8, completion_tokens: 10 });
  });

  it.each([
    ['whose token Zhipu refuses', fakeZhipuKeys.wrongSecret, 'chatglm_pro'],
    ['whose key is not id.secret', 'no-secret-here', 'chatglm_pro_malformed'],
  ])('disables a channel %s and answers from the next', async (_case, key, channelModel) => {
    const failing = await relay.channel({ type: 16, key, baseUrl: fake.url, models: [channelModel], priority: 10 });
    const backup = await relay.channel({ type: 16, key: fakeZhipuKeys.backup, baseUrl: fake.url, models: [channelModel], priority: 0 });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: channelModel,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(answer.choices[0]?.message.content).toBe('我是智谱清言，一个人工智能助手。\n很高兴见到你！');
    await relay.waitForStatus(failing, ChannelStatus.autoDisabled);
    const state = await token.state([failing, backup]);
    expect(state.logs[0]).toMatchObject({ channel_id: backup, prompt_tokens: 8, completion_tokens: 28 });
  });

  it('retries a rate-limited channel elsewhere and keeps it enabled', async () => {
    const seed = { type: 16, baseUrl: fake.url, model: 'chatglm_std', failingKey: fakeZhipuKeys.rateLimited, backupKey: fakeZhipuKeys.good };
    const run = await callPastFailingChannel(relay, seed, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('智谱清言');
    await expectServedByBackup(relay, run, 'kept');
  });

  it("surfaces a content refusal sent with HTTP 200 as the caller's error, streamed or not, without charging", async () => {
    const channelId = await relay.channel({ type: 16, key: fakeZhipuKeys.good, baseUrl: fake.url, models: ['chatglm_lite'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    for (const stream of [false, true]) {
      const error = (await client.chat.completions
        .create({ model: 'chatglm_lite', messages: [{ role: 'user', content: `Tell me about ${fakeZhipuRefusedWord}` }], stream })
        .catch((caught: unknown) => caught)) as { status: number; error: { message: string; code: string } };
      expect(error).toMatchObject({ status: 400, error: { code: '1301' } });
      expect(error.error.message).toContain('不安全或敏感内容');
    }
    const state = await token.state([channelId]);
    expect(state.logs).toHaveLength(0);
    expect(state.channels[0]?.status).toBe(ChannelStatus.enabled);
  });

  it('ends a stream with the vendor message when an error event arrives midway', async () => {
    await relay.channel({ type: 16, key: fakeZhipuKeys.good, baseUrl: fake.url, models: ['chatglm_turbo_stream_error'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'chatglm_turbo_stream_error',
      messages: [{ role: 'user', content: fakeZhipuStreamErrorWord }],
      stream: true,
    });
    let content = '';
    const failure = await (async () => {
      for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught as Error);
    expect(content).toBe('关于这个问题');
    expect(String(failure)).toContain('不安全或敏感内容');
  });
});
