import type OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup } from '../claude/testing/channel-fail-over.ts';
import { fakeSparkKeys, refusedQuestion, startFakeSpark, type FakeSpark } from './testing/fake-spark.ts';

const weatherTool = {
  type: 'function' as const,
  function: { name: '天气查询', description: '查询天气', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
};
/** Every model the suite asks for, priced: ratio 2, completion ratio 3. */
const models = [
  'SparkDesk-v3.5',
  'SparkDesk',
  'SparkDesk-v4.0',
  'SparkDesk-v3.1',
  'SparkDesk-v2.1',
  'SparkDesk-max-32k',
  'SparkDesk-pro-128k',
  'SparkDesk-v1.1',
];
// The recorded text answer: 5 prompt tokens, 23 completion tokens: (5 + 23 × 3) × 2 = 148.
const textCharge = 148;
// The recorded function call: 54 prompt tokens, 19 completion tokens: (54 + 19 × 3) × 2 = 222.
const functionCallCharge = 222;
const answerText = '你好！我是讯飞星火认知大模型，很高兴为你服务。';
/** The question the recorded Spark answers reply to. */
const askWhoItIs = (client: OpenAI, model: string) => client.chat.completions.create({ model, messages: [{ role: 'user', content: '你是谁' }] });

describe.each(testDatabases())('iFlytek Spark channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeSpark;

  beforeAll(async () => {
    fake = await startFakeSpark();
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    const priced = (ratio: number) => Object.fromEntries(models.map((model) => [model, ratio]));
    await options.set('ModelRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelRatio'), ...priced(2) }));
    await options.set('CompletionRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('CompletionRatio'), ...priced(3) }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client over the signed WebSocket, streamed and not, and bills the usage Spark reports', async () => {
    const channelId = await relay.channel({ type: 18, key: fakeSparkKeys.good, baseUrl: fake.url, models: ['SparkDesk-v3.5'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const messages = [
      { role: 'system' as const, content: '你是一个助手' },
      { role: 'user' as const, content: '你是谁' },
    ];
    const answer = await client.chat.completions.create({ model: 'SparkDesk-v3.5', messages, temperature: 0.5, max_tokens: 1024 });
    expect(answer.choices[0]?.message.content).toBe(answerText);
    expect(answer.choices[0]?.finish_reason).toBe('stop');
    expect(answer.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 23, total_tokens: 28 });
    expect(fake.sessions.at(-1)).toEqual({
      path: '/v3.5/chat',
      message: {
        header: { app_id: 'appgood' },
        parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 1024 } },
        payload: { message: { text: messages } },
      },
    });

    const stream = await client.chat.completions.create({ model: 'SparkDesk-v3.5', messages, stream: true, stream_options: { include_usage: true } });
    let content = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe(answerText);
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 23 });

    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, log.channel_id])).toEqual([
      [textCharge, 5, 23, channelId],
      [textCharge, 5, 23, channelId],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 2 * textCharge);
    expect(state.channels[0]?.used_quota).toBe(2 * textCharge);
  });

  it('takes the version from the channel when the model name has none, and folds the system prompt for versions without one', async () => {
    await relay.channel({ type: 18, key: fakeSparkKeys.good, baseUrl: fake.url, models: ['SparkDesk'], other: 'v3.1' });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({
      model: 'SparkDesk',
      messages: [
        { role: 'system', content: '你是一个助手' },
        { role: 'user', content: '你是谁' },
      ],
    });
    expect(answer.choices[0]?.message.content).toBe(answerText);
    expect(fake.sessions.at(-1)).toMatchObject({
      path: '/v3.1/chat',
      message: {
        parameter: { chat: { domain: 'generalv3' } },
        payload: {
          message: {
            text: [
              { role: 'user', content: '你是一个助手' },
              { role: 'assistant', content: 'Okay' },
              { role: 'user', content: '你是谁' },
            ],
          },
        },
      },
    });
  });

  it('answers a function call as tool calls, streamed and not', async () => {
    const channelId = await relay.channel({ type: 18, key: fakeSparkKeys.good, baseUrl: fake.url, models: ['SparkDesk-v4.0'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const request = { model: 'SparkDesk-v4.0', messages: [{ role: 'user' as const, content: '合肥今天天气怎么样？' }], tools: [weatherTool] };
    const answer = await client.chat.completions.create(request);
    expect(answer.choices[0]?.finish_reason).toBe('tool_calls');
    expect(answer.choices[0]?.message.tool_calls).toEqual([
      { id: 'call_cht000b41d5@dx18b96b4c0e4b8f2542_0', type: 'function', function: { name: '天气查询', arguments: '{"datetime":"今天","location":"合肥"}' } },
    ]);
    expect(fake.sessions.at(-1)?.message).toMatchObject({
      parameter: { chat: { domain: '4.0Ultra' } },
      payload: { functions: { text: [{ name: '天气查询', description: '查询天气', parameters: weatherTool.function.parameters }] } },
    });

    const stream = await client.chat.completions.create({ ...request, stream: true });
    let name = '';
    let argumentsText = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        argumentsText += call.function?.arguments ?? '';
      }
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect([name, JSON.parse(argumentsText), finish]).toEqual(['天气查询', { datetime: '今天', location: '合肥' }, 'tool_calls']);
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => log.quota)).toEqual([functionCallCharge, functionCallCharge]);
  });

  it('disables a channel whose signature iFlytek refuses and answers from the next one', async () => {
    const seed = { type: 18, baseUrl: fake.url, model: 'SparkDesk-v3.1', failingKey: fakeSparkKeys.wrongSecret, backupKey: fakeSparkKeys.backup };
    const run = await callPastFailingChannel(relay, seed, askWhoItIs);
    expect(run.answer.choices[0]?.message.content).toBe(answerText);
    await expectServedByBackup(relay, run, 'disabled', { quota: textCharge });
  });

  it('retries a channel over its per-second limit elsewhere and keeps it enabled', async () => {
    const seed = { type: 18, baseUrl: fake.url, model: 'SparkDesk-v2.1', failingKey: fakeSparkKeys.secondLimit, backupKey: fakeSparkKeys.backup };
    const run = await callPastFailingChannel(relay, seed, askWhoItIs);
    expect(run.answer.choices[0]?.message.content).toBe(answerText);
    await expectServedByBackup(relay, run, 'kept');
  });

  it('surfaces an audit refusal with iFlytek message, without trying another channel', async () => {
    await relay.channel({ type: 18, key: fakeSparkKeys.good, baseUrl: fake.url, models: ['SparkDesk-max-32k'], priority: 10 });
    await relay.channel({ type: 18, key: fakeSparkKeys.backup, baseUrl: fake.url, models: ['SparkDesk-max-32k'], priority: 0 });
    const token = await relay.token();
    const sessionsBefore = fake.sessions.length;
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'SparkDesk-max-32k', messages: [{ role: 'user', content: `tell me about the ${refusedQuestion}` }] })
      .catch((caught: unknown) => caught)) as { status: number; error: { type: string; code: string; message: string } };
    expect(error).toMatchObject({ status: 400, error: { type: 'content_filter', code: '10013' } });
    expect(error.error.message).toContain('输入内容审核不通过，涉嫌违规，请重新调整输入内容');
    expect(fake.sessions.length).toBe(sessionsBefore + 1);
    expect(fake.sessions.at(-1)).toMatchObject({ path: '/chat/max-32k', message: { parameter: { chat: { domain: 'max-32k' } } } });
  });

  it('ends a stream cut short, or refused by the output audit, with an error the client raises', async () => {
    await relay.channel({ type: 18, key: fakeSparkKeys.cutShort, baseUrl: fake.url, models: ['SparkDesk-pro-128k'] });
    await relay.channel({ type: 18, key: fakeSparkKeys.outputRefused, baseUrl: fake.url, models: ['SparkDesk-v1.1'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const read = async (model: string) => {
      let content = '';
      const stream = await client.chat.completions.create({ model, messages: [{ role: 'user', content: '你是谁' }], stream: true });
      const error = await (async () => {
        for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
      })().catch((caught: unknown) => caught);
      return { content, error: error as { message?: string } | undefined };
    };
    const cut = await read('SparkDesk-pro-128k');
    expect(cut.content).toBe('你好！我是讯飞星火认知大模型，');
    expect(cut.error?.message).toContain('The upstream stopped in the middle of the answer');
    const refused = await read('SparkDesk-v1.1');
    expect(refused.content).toBe('你好！');
    expect(refused.error?.message).toContain('输出内容涉及敏感信息');
  });
});
