import { describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { parseTencentError, tencentErrorCode, tencentErrorStatus } from './parse-tencent-error.ts';
import { sha256Hex, signTc3, utcDate } from './tc3-signature.ts';
import { parseTencentKey } from './tencent-transport.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context = { model: 'hunyuan-lite', upstreamModel: 'hunyuan-lite', requestId: 'req1', createdAt: 1_700_000_000 };

type Chunk = { choices: { delta: Record<string, unknown>; finish_reason: string | null }[]; usage?: unknown };

function streamChunks(name: string): { chunks: Chunk[]; converter: ReturnType<typeof createChatStreamConverter> } {
  const converter = createChatStreamConverter(context);
  const chunks = parseSseText(readStreamFixture(fixtures, name)).flatMap((event) => converter.push(event)) as Chunk[];
  return { chunks, converter };
}

describe('TC3-HMAC-SHA256 signature', () => {
  // The worked example of Tencent's signature v3 documentation (CVM DescribeInstances, 2019-02-25).
  const example = {
    secretId: 'AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE',
    secretKey: 'Gu5t9xGARNpq86cd98joQYCN3EXAMPLE',
    service: 'cvm',
    timestamp: 1551113065,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json; charset=utf-8', host: 'cvm.tencentcloudapi.com' },
    payload: '{"Limit": 1, "Filters": [{"Values": ["\\u672a\\u547d\\u540d"], "Name": "instance-name"}]}',
  };

  it('reproduces the documentation’s payload hash, canonical request, string to sign and signature', () => {
    expect(sha256Hex(example.payload)).toBe('35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064');
    const signed = signTc3(example);
    expect(signed.canonicalRequest).toBe(
      'POST\n/\n\ncontent-type:application/json; charset=utf-8\nhost:cvm.tencentcloudapi.com\n\ncontent-type;host\n35e9c5b0e3ae67532d3c9f17ead6c90222632e5b1ff7f6e89887f1398934f064',
    );
    expect(signed.stringToSign).toBe(
      'TC3-HMAC-SHA256\n1551113065\n2019-02-25/cvm/tc3_request\n5ffe6a04c0664d6b969fab9a13bdab201d63ee709638e2749d62a09ca18d7031',
    );
    expect(signed.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
    expect(signed.authorization).toBe(
      'TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168',
    );
  });

  it('dates the scope in UTC and signs headers in name order, whatever order they are given in', () => {
    // 2019-02-26 00:44:25 in UTC+8 is still 2019-02-25 in UTC.
    expect(utcDate(1551113065)).toBe('2019-02-25');
    const reordered = signTc3({ ...example, headers: { host: 'cvm.tencentcloudapi.com', 'Content-Type': 'application/json; charset=utf-8' } });
    expect(reordered.signature).toBe('72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168');
  });

  it('reads the key as AppId|SecretId|SecretKey', () => {
    expect(parseTencentKey('1250000000|AKIDabc|secret')).toEqual({ appId: '1250000000', secretId: 'AKIDabc', secretKey: 'secret' });
    expect(parseTencentKey('AKIDabc|secret')).toBeUndefined();
  });
});

describe('Hunyuan chat request', () => {
  it('converts messages, images, tools and sampling to Tencent’s fields', () => {
    const { body, warnings } = convertChatRequest(
      {
        model: 'hunyuan-turbo',
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is here?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"location":"深圳"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_1', content: '晴' },
          { role: 'system', content: 'Answer in Chinese.' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { location: { type: 'string' } } } },
          },
        ],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        temperature: 1.5,
        top_p: 0.9,
        stop: ['END'],
        seed: 42,
        max_tokens: 100,
        stream: true,
      },
      'hunyuan-turbo',
    );
    const tool = {
      Type: 'function',
      Function: { Name: 'get_weather', Parameters: '{"type":"object","properties":{"location":{"type":"string"}}}', Description: 'Weather now' },
    };
    expect(body).toEqual({
      Model: 'hunyuan-turbo',
      Messages: [
        { Role: 'system', Content: 'Be brief.\nAnswer in Chinese.' },
        {
          Role: 'user',
          Contents: [
            { Type: 'text', Text: 'What is here?' },
            { Type: 'image_url', ImageUrl: { Url: 'https://example.com/cat.png' } },
          ],
        },
        {
          Role: 'assistant',
          Content: '',
          ToolCalls: [{ Id: 'call_1', Type: 'function', Function: { Name: 'get_weather', Arguments: '{"location":"深圳"}' } }],
        },
        { Role: 'tool', Content: '晴', ToolCallId: 'call_1' },
      ],
      Stream: true,
      Temperature: 1.5,
      TopP: 0.9,
      Stop: ['END'],
      Seed: 42,
      Tools: [tool],
      ToolChoice: 'custom',
      CustomTool: tool,
    });
    expect(warnings).toEqual(['max_tokens ignored: Hunyuan has no output limit parameter']);
  });

  it('passes none and auto tool choices and reports required', () => {
    const base = { model: 'hunyuan-turbo', messages: [{ role: 'user', content: 'Hi' }] };
    expect(convertChatRequest({ ...base, tool_choice: 'none' }, 'hunyuan-turbo').body.ToolChoice).toBe('none');
    const required = convertChatRequest({ ...base, tool_choice: 'required' }, 'hunyuan-turbo');
    expect(required.body.ToolChoice).toBeUndefined();
    expect(required.warnings).toEqual(['tool_choice required sent as auto: Hunyuan cannot force some tool']);
  });
});

describe('Hunyuan answers', () => {
  it('converts a complete answer with Tencent’s usage', () => {
    const { body, usage } = convertChatResponse(readJsonFixture(fixtures, 'chat-completion.json'), context);
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 13 });
    expect(body).toMatchObject({
      id: 'ad3d1c8d-a0b3-4bd5-a6a9-d8b4a3c6ba3a',
      model: 'hunyuan-lite',
      choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: '您好！我是腾讯混元大模型，很高兴为您服务。' } }],
      usage: { prompt_tokens: 2, completion_tokens: 13, total_tokens: 15 },
    });
  });

  it('converts tool calls in a complete answer', () => {
    const { body } = convertChatResponse(readJsonFixture(fixtures, 'chat-tool-call.json'), context);
    expect(body.choices[0]).toEqual({
      index: 0,
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_cp8j3qq5jc1b3b8hhnhg', type: 'function', function: { name: 'get_weather', arguments: '{"location":"深圳"}' } }],
      },
    });
  });

  it('converts a stream, finishing with the last frame’s usage', () => {
    const { chunks, converter } = streamChunks('chat-stream.chunks.txt');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('计算机是一种能够按照程序运行的电子设备。');
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason !== null)).toHaveLength(1);
    expect(chunks.at(-1)).toMatchObject({
      choices: [{ finish_reason: 'stop', delta: {} }],
      usage: { prompt_tokens: 3, completion_tokens: 14, total_tokens: 17 },
    });
    expect(converter.usage()).toEqual({ promptTokens: 3, completionTokens: 14 });
  });

  it('merges streamed tool-call deltas by id into one OpenAI tool call', () => {
    const { chunks } = streamChunks('chat-tool-call.chunks.txt');
    const calls = chunks.flatMap(
      (chunk) => (chunk.choices[0]?.delta.tool_calls as { index: number; id?: string; function: { name?: string; arguments: string } }[]) ?? [],
    );
    expect(calls.map((call) => call.index)).toEqual([0, 0]);
    expect(calls[0]).toMatchObject({ id: 'call_cp8j3qq5jc1b3b8hhnhg', function: { name: 'get_weather' } });
    expect(JSON.parse(calls.map((call) => call.function.arguments).join(''))).toEqual({ location: '深圳' });
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
  });

  it('surfaces moderation stopping the output as a content-filter finish', () => {
    const { chunks } = streamChunks('chat-sensitive.chunks.txt');
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'content_filter' }], usage: { prompt_tokens: 8, completion_tokens: 4 } });
  });

  it('turns ErrorMsg in a stream into an error chunk', () => {
    const converter = createChatStreamConverter(context);
    expect(converter.push({ event: '', data: '{"ErrorMsg":{"Msg":"请求模型超时","Code":4001}}' })).toEqual([
      { error: { message: '请求模型超时', type: 'upstream_error', code: '4001' } },
    ]);
  });

  it('converts embeddings both ways', () => {
    expect(convertEmbeddingsRequest({ input: 'one' })).toEqual({ InputList: ['one'] });
    const { body, usage } = convertEmbeddingsResponse(readJsonFixture(fixtures, 'embeddings.json'), { ...context, model: 'hunyuan-embedding' });
    expect(usage).toEqual({ promptTokens: 6, completionTokens: 0 });
    expect(body).toMatchObject({
      object: 'list',
      model: 'hunyuan-embedding',
      data: [{ index: 0 }, { index: 1 }],
      usage: { prompt_tokens: 6, total_tokens: 6 },
    });
  });
});

describe('Tencent errors', () => {
  it('finds the error of a 200 answer and gives it a status', () => {
    expect(tencentErrorCode(readJsonFixture(fixtures, 'error-signature-failure.json'))).toBe('AuthFailure.SignatureFailure');
    expect(tencentErrorCode(readJsonFixture(fixtures, 'chat-completion.json'))).toBeUndefined();
    expect(
      [
        'AuthFailure.SecretIdNotFound',
        'RequestLimitExceeded',
        'ResourceUnavailable.InArrears',
        'InvalidParameterValue.Model',
        'InternalError',
        'InvalidAction',
      ].map(tencentErrorStatus),
    ).toEqual([401, 429, 402, 400, 500, 404]);
  });

  it('disables on bad credentials and arrears, retries rate limits, keeps a clock skew and bad requests off the key', () => {
    expect(parseTencentError(401, readJsonFixture(fixtures, 'error-signature-failure.json'))).toMatchObject({
      disablesChannel: true,
      code: 'tencent_AuthFailure.SignatureFailure',
      type: 'authentication_error',
    });
    expect(parseTencentError(402, readJsonFixture(fixtures, 'error-arrears.json'))).toMatchObject({ disablesChannel: true, message: '账号已欠费。' });
    expect(parseTencentError(429, readJsonFixture(fixtures, 'error-request-limit.json'))).toMatchObject({
      disablesChannel: false,
      retryable: true,
      type: 'rate_limit_error',
    });
    expect(parseTencentError(401, readJsonFixture(fixtures, 'error-signature-expire.json'))).toMatchObject({ disablesChannel: false });
    expect(parseTencentError(400, readJsonFixture(fixtures, 'error-invalid-model.json'))).toMatchObject({ disablesChannel: false, message: '模型不存在' });
  });
});
