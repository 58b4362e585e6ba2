import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { fakeTencentKeys, startFakeTencent } from './testing/fake-tencent.ts';

// Prices set for these tests: hunyuan-lite ratio 1 with completion ratio 2, hunyuan-functioncall 2 and 1,
// hunyuan-standard 1 and 1, hunyuan-embedding 0.5.
// The recorded answer: 2 prompt, 13 completion tokens → 2 + 26 = 28. The stream: 3 and 14 → 3 + 28 = 31.
const answerCharge = 28;
const streamCharge = 31;
const weatherTool = {
  type: 'function' as const,
  function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};

describe.each(testDatabases())('Tencent Hunyuan channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeTencent();
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    const modelRatio = options.getJson<Record<string, number>>('ModelRatio') ?? {};
    const completionRatio = options.getJson<Record<string, number>>('CompletionRatio') ?? {};
    await options.set(
      'ModelRatio',
      JSON.stringify({ ...modelRatio, 'hunyuan-lite': 1, 'hunyuan-functioncall': 2, 'hunyuan-standard': 1, 'hunyuan-large': 1, 'hunyuan-embedding': 0.5 }),
    );
    await options.set('CompletionRatio', JSON.stringify({ ...completionRatio, 'hunyuan-lite': 2, 'hunyuan-functioncall': 1, 'hunyuan-standard': 1 }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client through a signed ChatCompletions call, charged exactly', async () => {
    const channelId = await relay.channel({ type: 23, key: fakeTencentKeys.good, baseUrl: fake.url, models: ['hunyuan-lite'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'hunyuan-lite',
      messages: [
        { role: 'system', content: '你是一个助手' },
        { role: 'user', content: '你好' },
      ],
      top_p: 0.8,
    });
    expect(answer.choices[0]?.message.content).toBe('您好！我是腾讯混元大模型，很高兴为您服务。');
    expect(answer.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 13, total_tokens: 15 });

    const sent = fake.requests.at(-1);
    expect(sent?.headers['x-tc-action']).toBe('ChatCompletions');
    expect(sent?.headers['x-tc-version']).toBe('2023-09-01');
    expect(sent?.headers.authorization).toMatch(
      /^TC3-HMAC-SHA256 Credential=AKIDfakeGood0+\/\d{4}-\d{2}-\d{2}\/hunyuan\/tc3_request, SignedHeaders=content-type;host;x-tc-action, /,
    );
    expect(sent?.body).toEqual({
      Model: 'hunyuan-lite',
      Messages: [
        { Role: 'system', Content: '你是一个助手' },
        { Role: 'user', Content: '你好' },
      ],
      TopP: 0.8,
    });

    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: answerCharge, prompt_tokens: 2, completion_tokens: 13, channel_id: channelId, model_name: 'hunyuan-lite' });
    expect(state.token.remain_quota).toBe(10_000_000 - answerCharge);
    expect(state.channels[0]?.used_quota).toBe(answerCharge);
  });

  it('streams the answer with usage at the end, charged exactly', async () => {
    const channelId = await relay.channel({ type: 23, key: fakeTencentKeys.good, baseUrl: fake.url, models: ['hunyuan-lite'] });
    const token = await relay.token();
    const stream = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'hunyuan-lite',
      messages: [{ role: 'user', content: '什么是计算机？' }],
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
    expect(content).toBe('计算机是一种能够按照程序运行的电子设备。');
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 14 });
    expect(fake.requests.at(-1)?.body?.Stream).toBe(true);
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: streamCharge, prompt_tokens: 3, completion_tokens: 14 });
  });

  it('answers tool calls, streamed and not', async () => {
    const channelId = await relay.channel({ type: 23, key: fakeTencentKeys.good, baseUrl: fake.url, models: ['hunyuan-functioncall'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const messages = [{ role: 'user' as const, content: '深圳天气怎么样？' }];
    const answer = await client.chat.completions.create({ model: 'hunyuan-functioncall', messages, tools: [weatherTool] });
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answer.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_cp8j3qq5jc1b3b8hhnhg', type: 'function', function: { name: 'get_weather', arguments: '{"location":"深圳"}' } },
    ]);
    expect(fake.requests.at(-1)?.body?.Tools).toEqual([
      { Type: 'function', Function: { Name: 'get_weather', Description: 'Weather now', Parameters: JSON.stringify(weatherTool.function.parameters) } },
    ]);
    const stream = await client.chat.completions.create({ model: 'hunyuan-functioncall', messages, tools: [weatherTool], stream: true });
    let argumentsText = '';
    for await (const chunk of stream) for (const call of chunk.choices[0]?.delta.tool_calls ?? []) argumentsText += call.function?.arguments ?? '';
    expect(JSON.parse(argumentsText)).toEqual({ location: '深圳' });
    const state = await token.state([channelId]);
    // (102 + 22) × 2, twice.
    expect(state.logs.map((log) => log.quota)).toEqual([248, 248]);
  });

  it('answers embeddings through GetEmbedding', async () => {
    const channelId = await relay.channel({ type: 23, key: fakeTencentKeys.good, baseUrl: fake.url, models: ['hunyuan-embedding'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).embeddings.create({
      model: 'hunyuan-embedding',
      input: ['你好', '世界'],
      encoding_format: 'float',
    });
    expect(answer.data.map((item) => item.index)).toEqual([0, 1]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 6 });
    expect(fake.requests.at(-1)?.headers['x-tc-action']).toBe('GetEmbedding');
    expect(fake.requests.at(-1)?.body).toEqual({ InputList: ['你好', '世界'] });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: 3, prompt_tokens: 6 });
  });

  it('disables a channel whose signature Tencent rejects and answers from the next one', async () => {
    const seed = { type: 23, baseUrl: fake.url, model: 'hunyuan-standard', failingKey: fakeTencentKeys.wrongSecret, backupKey: fakeTencentKeys.backup };
    const run = await callPastFailingChannel(relay, seed, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('腾讯混元');
    await expectServedByBackup(relay, run, 'disabled', { quota: 15 });
  });

  it('disables a channel whose account is in arrears', async () => {
    const broke = await relay.channel({ type: 23, key: fakeTencentKeys.inArrears, baseUrl: fake.url, models: ['hunyuan-standard'], priority: 30 });
    await relay.channel({ type: 23, key: fakeTencentKeys.backup, baseUrl: fake.url, models: ['hunyuan-standard'], priority: 25 });
    const token = await relay.token();
    await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'hunyuan-standard', messages: [{ role: 'user', content: 'Hi' }] });
    await relay.waitForStatus(broke, ChannelStatus.autoDisabled);
  });

  it('retries a rate-limited channel on another one and keeps it enabled', async () => {
    const seed = { type: 23, baseUrl: fake.url, model: 'hunyuan-standard', failingKey: fakeTencentKeys.rateLimited, backupKey: fakeTencentKeys.backup };
    const run = await callPastFailingChannel(relay, { ...seed, priorities: [50, 40] }, sayHi);
    expect(run.answer.choices[0]?.message.content).toContain('腾讯混元');
    await expectServedByBackup(relay, run, 'kept');
  });

  it('answers Tencent’s own message when it refuses a model', async () => {
    // The channel maps the caller's model to one Tencent does not have.
    await relay.channel({
      type: 23,
      key: fakeTencentKeys.good,
      baseUrl: fake.url,
      models: ['hunyuan-large'],
      modelMapping: { 'hunyuan-large': 'hunyuan-retired' },
    });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'hunyuan-large', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; error: { message: string; code: string } };
    expect(error).toMatchObject({ status: 400, error: { code: 'tencent_InvalidParameterValue.Model' } });
    expect(error.error.message).toContain('模型不存在');
  });

  it('serves the official Anthropic client on /v1/messages from a Tencent channel, streamed and not, charged exactly', async () => {
    const channelId = await relay.channel({ type: 23, key: fakeTencentKeys.good, baseUrl: fake.url, models: ['hunyuan-lite'] });
    const token = await relay.token();
    const client = new Anthropic({ apiKey: token.apiKey, baseURL: relay.baseUrl, maxRetries: 0, timeout: 20_000 });
    const message = await client.messages.create({
      model: 'hunyuan-lite',
      max_tokens: 256,
      system: '你是一个助手',
      messages: [{ role: 'user', content: '你好' }],
    });
    expect(message.content).toEqual([{ type: 'text', text: '您好！我是腾讯混元大模型，很高兴为您服务。' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 2, output_tokens: 13 });
    expect(fake.requests.at(-1)?.body?.Messages).toEqual([
      { Role: 'system', Content: '你是一个助手' },
      { Role: 'user', Content: '你好' },
    ]);

    const stream = client.messages.stream({ model: 'hunyuan-lite', max_tokens: 256, messages: [{ role: 'user', content: '什么是计算机？' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe('计算机是一种能够按照程序运行的电子设备。');
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage).toMatchObject({ output_tokens: 14 });

    const state = await token.state([channelId]);
    const charges = state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens]);
    expect(charges.sort((left, right) => (left[0] ?? 0) - (right[0] ?? 0))).toEqual([
      [answerCharge, 2, 13],
      [streamCharge, 3, 14],
    ]);
  });
});
