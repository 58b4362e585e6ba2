import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ChannelTarget, ConversionContext, TransportOptions } from '../../provider.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { convertChatRequest, cozeBotId } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { createCozeTransport } from './coze-transport.ts';
import { parseCozeError, statusForCozeCode } from './parse-coze-error.ts';
import { fakeCozeBotId, fakeCozeKeys, startFakeCoze, type FakeCoze } from './testing/fake-coze.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'coze-bot', upstreamModel: 'coze-bot', requestId: 'req-1', createdAt: 1_700_000_000 };
const target = (other: string): ChannelTarget => ({ id: 1, type: 49, baseUrl: '', key: 'pat_good', organization: '', other });

type Chunk = { choices: { delta: { content?: string }; finish_reason: string | null }[]; usage?: unknown; error?: unknown };

describe('Coze request conversion', () => {
  it('takes the bot from the channel, else from the model name', () => {
    expect(cozeBotId(target(' 7379462189365198898 '), 'coze-bot')).toBe('7379462189365198898');
    expect(cozeBotId(target(''), 'bot-7342866812345')).toBe('7342866812345');
    expect(cozeBotId(target(''), '7342866812345')).toBe('7342866812345');
  });

  it('sends questions and answers as additional messages, images by URL, and drops the system prompt', () => {
    const { body, warnings } = convertChatRequest(
      {
        user: 'u-1',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } },
            ],
          },
        ],
      },
      fakeCozeBotId,
      true,
    );
    expect(body).toEqual({
      bot_id: fakeCozeBotId,
      user_id: 'u-1',
      stream: true,
      additional_messages: [
        { role: 'user', type: 'question', content: 'Hi', content_type: 'text' },
        { role: 'assistant', type: 'answer', content: 'Hello!', content_type: 'text' },
        {
          role: 'user',
          type: 'question',
          content: '[{"type":"text","text":"What is this?"},{"type":"image","file_url":"https://example.com/cat.png"}]',
          content_type: 'object_string',
        },
      ],
    });
    expect(warnings).toEqual(['system prompt ignored: a Coze bot has its own persona']);
  });
});

describe('Coze answer conversion', () => {
  it('streams answer deltas and finishes with the chat usage', () => {
    const converter = createChatStreamConverter(context);
    const chunks = parseSseText(readStreamFixture(fixtures, 'chat-stream.chunks.txt')).flatMap((event) => converter.push(event)) as Chunk[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('2024 年 10 月 1 日是星期二。');
    expect(chunks).toHaveLength(4);
    expect(chunks.at(-1)).toMatchObject({
      id: 'chatcmpl-7382159487131697202',
      choices: [{ finish_reason: 'stop' }],
      usage: { prompt_tokens: 5878, completion_tokens: 766, total_tokens: 6644 },
    });
    expect(converter.usage()).toEqual({ promptTokens: 5878, completionTokens: 766 });
  });

  it('ends a failed chat with Coze last error', () => {
    const converter = createChatStreamConverter(context);
    const chunks = parseSseText(readStreamFixture(fixtures, 'chat-failed.chunks.txt')).flatMap((event) => converter.push(event));
    expect(chunks).toEqual([{ error: { message: 'model error: upstream model timed out', type: 'upstream_error', code: '4013' } }]);
  });

  it('converts a polled chat: the answer message, not the verbose or follow-up ones', () => {
    const chat = (readJsonFixture(fixtures, 'chat-retrieve-completed.json') as { data: unknown }).data;
    const messages = (readJsonFixture(fixtures, 'chat-message-list.json') as { data: unknown[] }).data;
    const { body, usage } = convertChatResponse({ chat, messages }, context);
    expect(body).toMatchObject({
      id: 'chatcmpl-7382159487131697202',
      choices: [{ message: { role: 'assistant', content: '2024 年 10 月 1 日是星期二。' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5878, completion_tokens: 766, total_tokens: 6644 },
    });
    expect(usage).toEqual({ promptTokens: 5878, completionTokens: 766 });
  });
});

describe('Coze errors', () => {
  it('gives business codes their HTTP meaning and disables dead tokens', () => {
    expect([4100, 4101, 4011, 4009, 4013, 4006].map(statusForCozeCode)).toEqual([401, 403, 402, 429, 502, 400]);
    expect(parseCozeError(401, readJsonFixture(fixtures, 'error-auth.json'))).toMatchObject({ code: '4100', disablesChannel: true });
    expect(parseCozeError(429, readJsonFixture(fixtures, 'error-rate-limit.json'))).toMatchObject({ disablesChannel: false, retryable: true });
    expect(parseCozeError(400, readJsonFixture(fixtures, 'error-invalid-bot.json'))).toMatchObject({ message: 'invalid bot', disablesChannel: false });
  });
});

describe('Coze transport', () => {
  let fake: FakeCoze;
  beforeAll(async () => {
    fake = await startFakeCoze();
  });
  afterAll(() => fake.close());

  const options = (key: string): TransportOptions => ({
    signal: AbortSignal.timeout(5000),
    headersTimeoutMs: 5000,
    bodyTimeoutMs: 5000,
    target: { ...target(''), key },
  });
  const chatRequest = (key: string) => ({
    url: `${fake.url}/v3/chat`,
    method: 'POST' as const,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bot_id: fakeCozeBotId, user_id: 'u', stream: false, additional_messages: [] }),
  });

  it('polls an in-progress chat until it completes, then answers the chat and its messages', async () => {
    fake.setPendingPolls(2);
    const response = await createCozeTransport({ pollIntervalMs: 1 }).send(chatRequest('pat_good'), options('pat_good'));
    fake.setPendingPolls(0);
    expect(response.statusCode).toBe(200);
    const answer = safeParseJson(await text(response.body));
    expect(answer.ok && answer.value).toMatchObject({
      chat: { status: 'completed', usage: { input_count: 5878 } },
      messages: [{ type: 'verbose' }, { type: 'answer' }, { type: 'follow_up' }],
    });
    expect(fake.requests.slice(-4).map((request) => request.path)).toEqual([
      '/v3/chat/retrieve',
      '/v3/chat/retrieve',
      '/v3/chat/retrieve',
      '/v3/chat/message/list',
    ]);
  });

  it('turns a refusal Coze sends as HTTP 200 into the failure status its code stands for', async () => {
    const refused = await createCozeTransport().send(chatRequest(fakeCozeKeys.invalid), options(fakeCozeKeys.invalid));
    expect(refused.statusCode).toBe(401);
    const streamed = await createCozeTransport().send(
      { ...chatRequest(fakeCozeKeys.rateLimited), headers: { ...chatRequest(fakeCozeKeys.rateLimited).headers, accept: 'text/event-stream' } },
      options(fakeCozeKeys.rateLimited),
    );
    expect(streamed.statusCode).toBe(429);
    expect(await text(streamed.body)).toContain('request limit');
  });
});
