import { describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { parseBaiduKey } from './access-token.ts';
import { baiduChatUrl, baiduEmbeddingsUrl } from './baidu-endpoints.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { baiduErrorCode, baiduErrorStatus, parseBaiduError } from './parse-baidu-error.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context = { model: 'ERNIE-4.0-8K', upstreamModel: 'ERNIE-4.0-8K', requestId: 'req1', createdAt: 1_700_000_000 };

describe('Baidu endpoints', () => {
  it('maps model names to Wenxin Workshop endpoints as new-api does, lowercasing the others', () => {
    expect(baiduChatUrl('https://aip.baidubce.com', 'ERNIE-4.0-8K')).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions_pro');
    expect(baiduChatUrl('https://aip.baidubce.com', 'ERNIE-3.5-8K')).toBe('https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/completions');
    expect(baiduChatUrl('https://aip.baidubce.com', 'ERNIE-Speed-128K')).toBe(
      'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie-speed-128k',
    );
    expect(baiduChatUrl('https://aip.baidubce.com', 'ERNIE-4.0-Turbo-8K')).toBe(
      'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/ernie-4.0-turbo-8k',
    );
    expect(baiduEmbeddingsUrl('https://aip.baidubce.com', 'Embedding-V1')).toBe(
      'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/embedding-v1',
    );
    expect(baiduEmbeddingsUrl('https://aip.baidubce.com', 'bge-large-zh')).toBe(
      'https://aip.baidubce.com/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/bge_large_zh',
    );
  });

  it('reads the key as APIKey|SecretKey', () => {
    expect(parseBaiduKey(' ak | sk ')).toEqual({ apiKey: 'ak', secretKey: 'sk' });
    expect(parseBaiduKey('ak')).toBeUndefined();
    expect(parseBaiduKey('ak|sk|extra')).toBeUndefined();
  });
});

describe('Baidu chat request', () => {
  it('moves system prompts to `system`, merges consecutive turns and maps sampling and limits', () => {
    const { body, warnings } = convertChatRequest({
      model: 'ERNIE-4.0-8K',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hello' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Who are you?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
      ],
      temperature: 0,
      top_p: 0.8,
      max_tokens: 1,
      stop: 'END',
      user: 'user-7',
      frequency_penalty: 0.5,
      stream: true,
    });
    expect(body).toEqual({
      messages: [{ role: 'user', content: 'Hello\nWho are you?' }],
      system: 'You are terse.',
      stream: true,
      temperature: 0.01,
      top_p: 0.8,
      stop: ['END'],
      max_output_tokens: 2,
      user_id: 'user-7',
    });
    expect(warnings).toEqual([
      'non-text content parts dropped: ERNIE v1 reads text only',
      "temperature 0 moved into Baidu's range (0, 1]",
      'frequency_penalty ignored',
    ]);
  });

  it('keeps alternating turns and asks for JSON when the caller does', () => {
    const { body, warnings } = convertChatRequest({
      model: 'ERNIE-3.5-8K',
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ],
      response_format: { type: 'json_object' },
      tools: [{ type: 'function', function: { name: 'f' } }],
    });
    expect(body.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(body.response_format).toBe('json_object');
    expect(warnings).toEqual(['tools and tool messages ignored']);
  });
});

describe('Baidu answers', () => {
  it('converts a complete answer with its usage as Baidu reports it', () => {
    const { body, usage } = convertChatResponse(readJsonFixture(fixtures, 'chat-completion.json'), context);
    expect(usage).toEqual({ promptTokens: 4, completionTokens: 36 });
    expect(body).toMatchObject({
      id: 'as-bcmt5ct4iy',
      object: 'chat.completion',
      model: 'ERNIE-4.0-8K',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: expect.stringContaining('文心一言') } }],
      usage: { prompt_tokens: 4, completion_tokens: 36, total_tokens: 40 },
    });
  });

  it('surfaces a refused input as a content-filter stop with Baidu’s text', () => {
    const { body } = convertChatResponse(readJsonFixture(fixtures, 'chat-unsafe-input.json'), context);
    expect(body.choices[0]).toMatchObject({ finish_reason: 'content_filter', message: { content: '作为一个人工智能语言模型，我无法回答这个问题。' } });
  });

  it('converts a stream frame by frame, finishing on is_end with the final usage', () => {
    const converter = createChatStreamConverter(context);
    const chunks = parseSseText(readStreamFixture(fixtures, 'chat-stream.chunks.txt')).flatMap((event) => converter.push(event)) as {
      choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[];
      usage?: unknown;
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('您好，我是文心一言。有什么可以帮您？');
    expect(chunks[0]?.choices[0]?.delta.role).toBe('assistant');
    expect(chunks.filter((chunk) => chunk.choices[0]?.finish_reason !== null)).toHaveLength(1);
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 13, total_tokens: 18 } });
    expect(converter.usage()).toEqual({ promptTokens: 5, completionTokens: 13 });
    expect(converter.takeText()).toBe('您好，我是文心一言。有什么可以帮您？');
  });

  it('turns an error frame into an error chunk', () => {
    const converter = createChatStreamConverter(context);
    expect(converter.push({ event: '', data: '{"error_code":336100,"error_msg":"try again later"}' })).toEqual([
      { error: { message: 'try again later', type: 'upstream_error', code: '336100' } },
    ]);
  });

  it('converts embeddings both ways', () => {
    expect(convertEmbeddingsRequest({ input: 'one', user: 'u1' })).toEqual({ input: ['one'], user_id: 'u1' });
    expect(convertEmbeddingsRequest({ input: ['a', 'b'] })).toEqual({ input: ['a', 'b'] });
    const { body, usage } = convertEmbeddingsResponse(readJsonFixture(fixtures, 'embeddings.json'), { ...context, model: 'Embedding-V1' });
    expect(usage).toEqual({ promptTokens: 12, completionTokens: 0 });
    expect(body).toMatchObject({
      object: 'list',
      model: 'Embedding-V1',
      data: [
        { object: 'embedding', index: 0, embedding: [0.018314670771360397, 0.00942440889775753, -0.36294862627983093] },
        { object: 'embedding', index: 1 },
      ],
      usage: { prompt_tokens: 12, total_tokens: 12 },
    });
  });
});

describe('Baidu errors', () => {
  it('finds the error code of a 200 answer and gives it a status', () => {
    expect(baiduErrorCode(readJsonFixture(fixtures, 'error-invalid-token.json'))).toBe(110);
    expect(baiduErrorCode(readJsonFixture(fixtures, 'chat-completion.json'))).toBeUndefined();
    expect([110, 111, 14, 18, 336501, 336502, 6, 336005, 336100, 336003].map(baiduErrorStatus)).toEqual([401, 401, 401, 429, 429, 429, 403, 404, 503, 400]);
  });

  it('disables the channel on bad credentials, retries limits elsewhere, leaves bad requests to the caller', () => {
    expect(parseBaiduError(401, readJsonFixture(fixtures, 'error-invalid-token.json'))).toMatchObject({
      disablesChannel: true,
      code: 'baidu_110',
      message: 'Access token invalid or no longer valid',
    });
    expect(parseBaiduError(401, readJsonFixture(fixtures, 'token-invalid-client.json'))).toMatchObject({
      disablesChannel: true,
      type: 'authentication_error',
      message: 'unknown client id',
    });
    expect(parseBaiduError(429, readJsonFixture(fixtures, 'error-qps-limit.json'))).toMatchObject({
      disablesChannel: false,
      retryable: true,
      type: 'rate_limit_error',
    });
    expect(parseBaiduError(429, readJsonFixture(fixtures, 'error-rpm-limit.json'))).toMatchObject({ disablesChannel: false, retryable: true });
    const refused = parseBaiduError(400, readJsonFixture(fixtures, 'error-messages-odd.json'));
    expect(refused).toMatchObject({ disablesChannel: false, message: 'the length of messages must be an odd number' });
    expect(refused.retryable).toBeUndefined();
  });
});
