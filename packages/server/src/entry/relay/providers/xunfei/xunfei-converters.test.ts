import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openAIChatRequestSchema, type OpenAIChatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext } from '../../provider.ts';
import { readJsonFixture } from '../claude/testing/fixtures.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { mergeSparkFrames } from './merge-spark-frames.ts';
import { parseSparkError } from './parse-spark-error.ts';
import { sparkFrameSchema } from './spark-api.ts';
import { parseSparkKey } from './spark-key.ts';
import { resolveSparkVersion, sparkChatUrl } from './spark-version.ts';
import { signSparkUrl, sparkAuthorization, sparkSignature } from './sign-spark-url.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'SparkDesk-v3.5', upstreamModel: 'SparkDesk-v3.5', requestId: 'req1', createdAt: 1_700_000_000 };
const request = (body: Record<string, unknown>) => openAIChatRequestSchema.parse({ model: 'SparkDesk-v3.5', ...body });
const frameLines = (name: string): string[] => readFileSync(new URL(name, fixtures), 'utf8').split('\n').filter(Boolean);
const frames = (name: string) => frameLines(name).map((line) => sparkFrameSchema.parse((safeParseJson(line) as { value: unknown }).value));

describe('the signed Spark URL', () => {
  // The example of iFlytek's "通用鉴权URL生成说明": APISecret, APIKey and date as published there.
  const documented = {
    apiSecret: 'MjlmNzkzNmZkMDQ2OTc0ZDdmNGE2ZTZi',
    apiKey: 'addd2272b6d8b7c8abdd79531420ca3b',
    date: 'Fri, 05 May 2023 10:43:39 GMT',
    signature: 'z5gHdu3pxVV4ADMyk467wOWDQ9q6BQzR3nfMTjc/DaQ=',
  };

  it('signs host, date and request line as the documentation example does', () => {
    expect(sparkSignature('spark-api.xf-yun.com', documented.date, '/v1.1/chat', documented.apiSecret)).toBe(documented.signature);
    expect(Buffer.from(sparkAuthorization(documented.apiKey, documented.signature), 'base64').toString('utf8')).toBe(
      `api_key="${documented.apiKey}", algorithm="hmac-sha256", headers="host date request-line", signature="${documented.signature}"`,
    );
  });

  it('puts authorization, date and host in the query of the WebSocket URL', () => {
    const signed = new URL(signSparkUrl('wss://spark-api.xf-yun.com/v1.1/chat', documented, new Date(documented.date)));
    expect(signed.origin + signed.pathname).toBe('wss://spark-api.xf-yun.com/v1.1/chat');
    expect(signed.searchParams.get('date')).toBe(documented.date);
    expect(signed.searchParams.get('host')).toBe('spark-api.xf-yun.com');
    expect(signed.searchParams.get('authorization')).toBe(
      'YXBpX2tleT0iYWRkZDIyNzJiNmQ4YjdjOGFiZGQ3OTUzMTQyMGNhM2IiLCBhbGdvcml0aG09ImhtYWMtc2hhMjU2IiwgaGVhZGVycz0iaG9zdCBkYXRlIHJlcXVlc3QtbGluZSIsIHNpZ25hdHVyZT0iejVnSGR1M3B4VlY0QURNeWs0Njd3T1dEUTlxNkJRelIzbmZNVGpjL0RhUT0i',
    );
  });

  it('reads the key as APPID|APISecret|APIKey', () => {
    expect(parseSparkKey('a1b2c3d4|MjlmNzkz|addd2272')).toEqual({ appId: 'a1b2c3d4', apiSecret: 'MjlmNzkz', apiKey: 'addd2272' });
    expect(parseSparkKey('a1b2c3d4|MjlmNzkz')).toBeUndefined();
    expect(parseSparkKey('a1b2c3d4||addd2272')).toBeUndefined();
  });
});

describe('the Spark model version', () => {
  it('comes from the model name, else the channel, else v1.1, with its path and domain', () => {
    expect(resolveSparkVersion('SparkDesk-v3.5', 'v2.1')).toMatchObject({ version: 'v3.5', path: '/v3.5/chat', domain: 'generalv3.5', takesSystemRole: true });
    expect(resolveSparkVersion('SparkDesk', 'v4.0')).toMatchObject({ path: '/v4.0/chat', domain: '4.0Ultra' });
    expect(resolveSparkVersion('SparkDesk', '3.1')).toMatchObject({ path: '/v3.1/chat', domain: 'generalv3', takesSystemRole: false });
    expect(resolveSparkVersion('SparkDesk', '')).toMatchObject({ path: '/v1.1/chat', domain: 'lite' });
    expect(resolveSparkVersion('SparkDesk-v2.1', '')).toMatchObject({ domain: 'generalv2' });
    expect(resolveSparkVersion('SparkDesk-pro-128k', '')).toMatchObject({ path: '/chat/pro-128k', domain: 'pro-128k' });
    expect(resolveSparkVersion('SparkDesk-v5.0', '')).toMatchObject({ path: '/v5.0/chat', domain: 'generalv5.0' });
  });

  it('goes to iFlytek unless the channel names another host, http spelled as ws', () => {
    const version = resolveSparkVersion('SparkDesk-v3.5', '');
    expect(sparkChatUrl('', version)).toBe('wss://spark-api.xf-yun.com/v3.5/chat');
    expect(sparkChatUrl('http://127.0.0.1:8080', version)).toBe('ws://127.0.0.1:8080/v3.5/chat');
    expect(sparkChatUrl('https://spark.example.com', version)).toBe('wss://spark.example.com/v3.5/chat');
  });
});

describe('OpenAI chat request → Spark request message', () => {
  const messages = [
    { role: 'system', content: 'You are Li Bai.' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'Who are you?' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      ],
    },
  ];

  it('keeps the system role on Max and Ultra, with the app id, domain and sampling', () => {
    const { body, warnings } = convertChatRequest(
      request({ messages, temperature: 0.5, max_tokens: 1024, top_k: 4, top_p: 0.9, user: 'user-7' }),
      'a1b2c3d4',
      resolveSparkVersion('SparkDesk-v3.5', ''),
    );
    expect(body).toEqual({
      header: { app_id: 'a1b2c3d4', uid: 'user-7' },
      parameter: { chat: { domain: 'generalv3.5', temperature: 0.5, max_tokens: 1024, top_k: 4 } },
      payload: {
        message: {
          text: [
            { role: 'system', content: 'You are Li Bai.' },
            { role: 'user', content: 'Who are you?' },
          ],
        },
      },
    });
    expect(warnings).toEqual(['top_p dropped: Spark has no such parameter', 'image_url content dropped: Spark chat takes text only']);
  });

  it('turns the system prompt into an acknowledged user turn on versions without a system role', () => {
    const { body } = convertChatRequest(request({ messages, max_completion_tokens: 64 }), 'a1b2c3d4', resolveSparkVersion('SparkDesk-v1.1', ''));
    expect(body.parameter.chat).toEqual({ domain: 'lite', max_tokens: 64 });
    expect(body.payload.message.text).toEqual([
      { role: 'user', content: 'You are Li Bai.' },
      { role: 'assistant', content: 'Okay' },
      { role: 'user', content: 'Who are you?' },
    ]);
  });

  it('sends tools as functions, and earlier calls and results as text turns', () => {
    const { body, warnings } = convertChatRequest(
      request({
        messages: [
          { role: 'user', content: '合肥天气？' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: '天气查询', arguments: '{"location":"合肥"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '晴，25度' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: '天气查询', description: '查天气', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
          },
        ],
        tool_choice: 'required',
      }),
      'a1b2c3d4',
      resolveSparkVersion('SparkDesk-v3.5', ''),
    );
    expect(body.payload.functions).toEqual({
      text: [{ name: '天气查询', description: '查天气', parameters: { type: 'object', properties: { location: { type: 'string' } } } }],
    });
    expect(body.payload.message.text).toEqual([
      { role: 'user', content: '合肥天气？' },
      { role: 'assistant', content: '[{"name":"天气查询","arguments":"{\\"location\\":\\"合肥\\"}"}]' },
      { role: 'user', content: '晴，25度' },
    ]);
    expect(warnings).toEqual(['tool_choice dropped: Spark decides itself whether to call a function']);
  });
});

describe('Spark answers → OpenAI', () => {
  it('merges the frames of a whole answer into one completion with usage', () => {
    const { body, usage } = convertChatResponse(mergeSparkFrames(frames('chat-text.frames.jsonl')), context);
    expect(body).toEqual({
      id: 'chatcmpl-cht000cb087@dx18793cd421fb894542',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'SparkDesk-v3.5',
      choices: [{ index: 0, message: { role: 'assistant', content: '你好！我是讯飞星火认知大模型，很高兴为你服务。' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 23, total_tokens: 28 },
    });
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 23 });
  });

  it('answers a function call as a tool call', () => {
    const { body } = convertChatResponse(mergeSparkFrames(frames('chat-function-call.frames.jsonl')), context);
    expect(body.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_cht000b41d5@dx18b96b4c0e4b8f2542_0',
            type: 'function',
            function: { name: '天气查询', arguments: '{"datetime":"今天","location":"合肥"}' },
          },
        ],
      },
      finish_reason: 'tool_calls',
    });
    expect(body.usage).toEqual({ prompt_tokens: 54, completion_tokens: 19, total_tokens: 73 });
  });

  it('streams one chunk per frame, the last with the finish reason and usage', () => {
    const converter = createChatStreamConverter(context);
    const chunks = frameLines('chat-text.frames.jsonl').flatMap((data) => converter.push({ event: '', data })) as OpenAIChatChunk[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '你好！' },
      { content: '我是讯飞星火认知大模型，' },
      { content: '很高兴为你服务。' },
      {},
    ]);
    expect(chunks.at(-1)).toMatchObject({
      id: 'chatcmpl-cht000cb087@dx18793cd421fb894542',
      choices: [{ finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 23, total_tokens: 28 },
    });
    expect(converter.usage()).toEqual({ promptTokens: 5, completionTokens: 23 });
    expect(converter.takeText()).toBe('你好！我是讯飞星火认知大模型，很高兴为你服务。');
  });

  it('streams a function call as one tool-call delta and an error frame as an in-stream error', () => {
    const converter = createChatStreamConverter(context);
    const [call, finishing] = converter.push({ event: '', data: frameLines('chat-function-call.frames.jsonl')[0] ?? '' }) as OpenAIChatChunk[];
    expect(call?.choices[0]?.delta).toEqual({
      role: 'assistant',
      tool_calls: [
        {
          index: 0,
          id: 'call_cht000b41d5@dx18b96b4c0e4b8f2542_0',
          type: 'function',
          function: { name: '天气查询', arguments: '{"datetime":"今天","location":"合肥"}' },
        },
      ],
    });
    expect(finishing?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(converter.push({ event: '', data: JSON.stringify(readJsonFixture(fixtures, 'error-output-audit.json')) })).toEqual([
      { error: { message: '输出内容涉及敏感信息，审核不通过，后续结果无法展示给用户', type: 'content_filter', code: '10014' } },
    ]);
  });
});

describe('Spark errors', () => {
  it('surfaces audit refusals, disables unlicensed apps, retries rate limits', () => {
    expect(parseSparkError(400, readJsonFixture(fixtures, 'error-input-audit.json'))).toEqual({
      status: 400,
      message: '输入内容审核不通过，涉嫌违规，请重新调整输入内容',
      type: 'content_filter',
      code: '10013',
      retryable: false,
      disablesChannel: false,
    });
    expect(parseSparkError(403, readJsonFixture(fixtures, 'error-no-license.json'))).toMatchObject({ code: '11200', disablesChannel: true });
    expect(parseSparkError(429, readJsonFixture(fixtures, 'error-second-limit.json'))).toMatchObject({
      code: '11202',
      type: 'rate_limit_error',
      retryable: true,
      disablesChannel: false,
    });
    expect(parseSparkError(500, { header: { code: 10012, message: 'EngineInternalError' } })).toMatchObject({ retryable: true, disablesChannel: false });
    expect(parseSparkError(400, { header: { code: 10907, message: 'token数量超过上限' } })).toMatchObject({ retryable: false, disablesChannel: false });
  });

  it('disables a channel whose handshake iFlytek refuses for the key, not for the clock', () => {
    expect(parseSparkError(401, readJsonFixture(fixtures, 'handshake-signature-mismatch.json'))).toMatchObject({
      message: 'HMAC signature does not match',
      type: 'authentication_error',
      disablesChannel: true,
    });
    expect(parseSparkError(403, readJsonFixture(fixtures, 'handshake-clock-skew.json'))).toMatchObject({ disablesChannel: false });
    expect(parseSparkError(403, { message: 'Your IP address is not allowed' })).toMatchObject({ disablesChannel: true });
  });
});
