import { createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import type { ConversionContext } from '../../provider.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse, decodeZhipuContent } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { parseZhipuError, statusForZhipuCode } from './parse-zhipu-error.ts';
import { reframeZhipuStream } from './reframe-zhipu-stream.ts';
import { parseZhipuKey, signZhipuToken, ZhipuTokens } from './zhipu-token.ts';
import { zhipuModelUrl } from './index.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'chatglm_turbo', upstreamModel: 'chatglm_turbo', requestId: 'req-1', createdAt: 1_700_000_000 };
const decodePart = (part: string | undefined): unknown => JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8'));

/** Runs a raw sse-invoke body through the transport's re-framing, in the given pieces, then the converter. */
async function convertStream(raw: string, pieceSize = raw.length) {
  const pieces: Buffer[] = [];
  const bytes = Buffer.from(raw);
  for (let index = 0; index < bytes.length; index += pieceSize) pieces.push(bytes.subarray(index, index + pieceSize));
  let framed = '';
  for await (const chunk of reframeZhipuStream(Readable.from(pieces))) framed += chunk.toString('utf8');
  const converter = createChatStreamConverter(context);
  const chunks = parseSseText(framed).flatMap((event) => converter.push(event));
  return { chunks: chunks as Record<string, unknown>[], usage: converter.usage(), text: converter.takeText() };
}

describe('Zhipu v3 token', () => {
  const key = { id: 'a1b2c3d4e5f6', secret: 'goodSecretValue' };
  const nowMs = 1_702_388_050_013;

  it('reads id.secret keys and nothing else', () => {
    expect(parseZhipuKey(' a1b2c3d4e5f6.goodSecretValue ')).toEqual(key);
    expect(parseZhipuKey('no-dot')).toBeUndefined();
    expect(parseZhipuKey('a.b.c')).toBeUndefined();
    expect(parseZhipuKey('.secret')).toBeUndefined();
  });

  it('signs HS256 with Zhipu header and millisecond claims, verifiable with the secret', () => {
    const token = signZhipuToken(key, nowMs, 3_600_000);
    const [header, payload, signature] = token.split('.');
    expect(decodePart(header)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(decodePart(payload)).toEqual({ api_key: 'a1b2c3d4e5f6', exp: 1_702_391_650_013, timestamp: 1_702_388_050_013 });
    const expected = createHmac('sha256', 'goodSecretValue').update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
    // Deterministic: the same clock gives the same token.
    expect(signZhipuToken(key, nowMs, 3_600_000)).toBe(token);
    expect(createHmac('sha256', 'another-secret').update(`${header}.${payload}`).digest('base64url')).not.toBe(signature);
  });

  it('reuses a token until five minutes before it expires, then signs a new one', () => {
    let now = nowMs;
    const tokens = new ZhipuTokens(() => now);
    const first = tokens.tokenFor(key);
    now += 54 * 60_000;
    expect(tokens.tokenFor(key)).toBe(first);
    now += 2 * 60_000;
    const second = tokens.tokenFor(key);
    expect(second).not.toBe(first);
    expect(decodePart(second.split('.')[1])).toMatchObject({ timestamp: now, exp: now + 3_600_000 });
    expect(tokens.tokenFor({ id: 'other', secret: 'x' })).not.toBe(second);
  });
});

describe('Zhipu v3 requests', () => {
  it('addresses invoke and sse-invoke by model', () => {
    expect(zhipuModelUrl('https://open.bigmodel.cn', 'chatglm_turbo', false)).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_turbo/invoke');
    expect(zhipuModelUrl('https://open.bigmodel.cn', 'chatglm_turbo', true)).toBe('https://open.bigmodel.cn/api/paas/v3/model-api/chatglm_turbo/sse-invoke');
  });

  it('turns system messages into a user turn answered "Okay", joins text parts and keeps v3 ranges', () => {
    const { body, warnings } = convertChatRequest(
      {
        model: 'chatglm_turbo',
        messages: [
          { role: 'system', content: 'You are terse.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Who ' },
              { type: 'text', text: 'are you?' },
              { type: 'image_url', image_url: { url: 'https://x/y.png' } },
            ],
          },
          { role: 'assistant', content: 'ChatGLM.' },
          { role: 'user', content: 'More.' },
        ],
        temperature: 1.6,
        top_p: 1,
        max_tokens: 100,
      },
      true,
    );
    expect(body).toEqual({
      prompt: [
        { role: 'user', content: 'You are terse.' },
        { role: 'assistant', content: 'Okay' },
        { role: 'user', content: 'Who are you?' },
        { role: 'assistant', content: 'ChatGLM.' },
        { role: 'user', content: 'More.' },
      ],
      temperature: 1,
      top_p: 0.99,
      incremental: true,
    });
    expect(warnings).toEqual([
      'a image_url part was dropped: ChatGLM v3 reads text only',
      "temperature 1.6 moved into ChatGLM's range (0, 1]",
      "top_p 1 moved into ChatGLM's range (0, 1)",
      'max_tokens ignored: ChatGLM v3 has no such parameter',
    ]);
    expect(convertChatRequest({ model: 'chatglm_turbo', messages: [{ role: 'user', content: 'hi' }], temperature: 0 }, false).body).toEqual({
      prompt: [{ role: 'user', content: 'hi' }],
      temperature: 0.01,
    });
  });
});

describe('Zhipu v3 answers', () => {
  it('converts an invoke answer, decoding the quoted content, with usage', () => {
    const { body, usage } = convertChatResponse(readJsonFixture(fixtures, 'invoke-text.json'), context);
    expect(body).toEqual({
      id: 'chatcmpl-8165843093843283456',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'chatglm_turbo',
      choices: [{ index: 0, message: { role: 'assistant', content: '我是智谱清言，一个人工智能助手。\n很高兴见到你！' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 8, completion_tokens: 28, total_tokens: 36 },
    });
    expect(usage).toEqual({ promptTokens: 8, completionTokens: 28 });
  });

  it('removes quotes from content that is not a JSON string literal', () => {
    expect(decodeZhipuContent('"broken \\x"')).toBe('broken \\x');
    expect(decodeZhipuContent('plain')).toBe('plain');
  });

  it.each([1, 7, 1000])('converts an sse-invoke stream read in pieces of %i bytes, multi-line data and meta usage included', async (pieceSize) => {
    const { chunks, usage, text } = await convertStream(readStreamFixture(fixtures, 'sse-invoke-text.chunks.txt'), pieceSize);
    const deltas = chunks.map((chunk) => (chunk.choices as { delta: { content?: string } }[])[0]?.delta);
    expect(deltas).toEqual([{ role: 'assistant', content: '我是' }, { content: '智谱清言' }, { content: '，\n很高兴见到你。' }, {}]);
    expect(chunks[0]?.id).toBe('chatcmpl-8165843093843283457');
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 } });
    expect(usage).toEqual({ promptTokens: 8, completionTokens: 10 });
    expect(text).toBe('我是智谱清言，\n很高兴见到你。');
  });

  it('ends a stream whose error event arrives midway with the vendor message', async () => {
    const { chunks, usage } = await convertStream(readStreamFixture(fixtures, 'sse-invoke-error.chunks.txt'));
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toEqual({ error: { message: expect.stringContaining('不安全或敏感内容'), type: 'zhipu_error' } });
    expect(usage).toBeUndefined();
  });
});

describe('Zhipu v3 errors', () => {
  it('disables on refused tokens and dead accounts, retries rate limits, surfaces content refusals', () => {
    expect(parseZhipuError(401, readJsonFixture(fixtures, 'error-authentication.json'))).toMatchObject({
      code: '1002',
      type: 'authentication_error',
      disablesChannel: true,
    });
    expect(parseZhipuError(403, { code: 1113, msg: '您的账户已欠费，请充值后重试。', success: false })).toMatchObject({ disablesChannel: true });
    expect(parseZhipuError(429, readJsonFixture(fixtures, 'error-rate-limit.json'))).toMatchObject({
      code: '1302',
      retryable: true,
      disablesChannel: false,
    });
    const refusal = parseZhipuError(400, readJsonFixture(fixtures, 'error-content-policy.json'));
    expect(refusal).toMatchObject({ code: '1301', type: 'content_policy_violation', retryable: false, disablesChannel: false });
    expect(refusal.message).toContain('不安全或敏感内容');
    expect(parseZhipuError(502, 'bad gateway')).toMatchObject({ message: 'bad gateway', disablesChannel: false });
  });

  it('gives failures reported with HTTP 200 the status their code stands for', () => {
    expect([1001, 1112, 1305, 1301, 1214, 500].map(statusForZhipuCode)).toEqual([401, 403, 429, 400, 400, 500]);
  });
});
