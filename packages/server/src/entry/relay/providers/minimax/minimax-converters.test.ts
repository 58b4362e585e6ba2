import { describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import type { ConversionContext } from '../../provider.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { convertChatResponse, createChatStreamConverter } from './convert-chat.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { parseMinimaxError, statusForMinimaxCode } from './parse-minimax-error.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'abab6.5s-chat', upstreamModel: 'MiniMax-Text-01', requestId: 'req-1', createdAt: 1_700_000_000 };

function convertStream(name: string) {
  const converter = createChatStreamConverter(context);
  const chunks = parseSseText(readStreamFixture(fixtures, name)).flatMap((event) => converter.push(event)) as Record<string, unknown>[];
  return { chunks, usage: converter.usage(), text: converter.takeText() };
}

describe('MiniMax chat', () => {
  it('passes a complete answer through with its usage', () => {
    const answer = readJsonFixture(fixtures, 'chatcompletion-text.json');
    expect(convertChatResponse(answer, context)).toEqual({ body: answer, usage: expect.objectContaining({ promptTokens: 71, completionTokens: 12 }) });
  });

  it('turns the stream-closing full message into a finishing chunk with the usage, and leaves the deltas alone', () => {
    const { chunks, usage, text } = convertStream('chatcompletion-text.chunks.txt');
    expect(chunks.map((chunk) => chunk.choices)).toEqual([
      [{ index: 0, delta: { content: '你好！', role: 'assistant', name: 'MM智能助理', audio_content: '' } }],
      [{ finish_reason: 'stop', index: 0, delta: { content: '有什么可以帮你的吗？', role: 'assistant', name: 'MM智能助理', audio_content: '' } }],
      [{ finish_reason: 'stop', index: 0, delta: {} }],
    ]);
    expect(chunks.every((chunk) => chunk.object === 'chat.completion.chunk')).toBe(true);
    // The zero usage of the first chunks is not passed on; the last one's is.
    expect(chunks.map((chunk) => chunk.usage)).toEqual([
      undefined,
      undefined,
      { total_tokens: 80, total_characters: 0, prompt_tokens: 71, completion_tokens: 9 },
    ]);
    expect(usage).toMatchObject({ promptTokens: 71, completionTokens: 9 });
    expect(text).toBe('你好！有什么可以帮你的吗？');
  });

  it('ends a stream whose output check fails midway with the vendor message', () => {
    const { chunks, usage } = convertStream('chatcompletion-output-sensitive.chunks.txt');
    expect(chunks).toHaveLength(2);
    expect(chunks[1]).toEqual({ error: { message: 'output new_sensitive', type: 'content_policy_violation', code: '1027' } });
    expect(usage).toBeUndefined();
  });
});

describe('MiniMax embeddings', () => {
  it('sends texts for storage unless the caller asks for a query embedding', () => {
    expect(convertEmbeddingsRequest({ model: 'embo-01', input: 'hello', dimensions: 8 }, 'embo-01')).toEqual({
      body: { model: 'embo-01', texts: ['hello'], type: 'db' },
      warnings: ['dimensions ignored: MiniMax has no such parameter'],
    });
    expect(convertEmbeddingsRequest({ input: ['a', [1, 2]], type: 'query' }, 'embo-01')).toEqual({
      body: { model: 'embo-01', texts: ['a'], type: 'query' },
      warnings: ['non-text inputs dropped: MiniMax embeds strings only'],
    });
  });

  it('answers vectors as an OpenAI embedding list with the tokens as prompt tokens', () => {
    const { body, usage } = convertEmbeddingsResponse(readJsonFixture(fixtures, 'embeddings.json'), { ...context, model: 'embo-01' });
    expect(body).toEqual({
      object: 'list',
      data: [
        { object: 'embedding', index: 0, embedding: [-0.0123, 0.0456, 0.0789, -0.0321] },
        { object: 'embedding', index: 1, embedding: [0.0212, -0.0334, 0.0656, 0.0101] },
      ],
      model: 'embo-01',
      usage: { prompt_tokens: 14, total_tokens: 14 },
    });
    expect(usage).toEqual({ promptTokens: 14, completionTokens: 0 });
  });
});

describe('MiniMax errors', () => {
  it('disables on refused keys and an empty balance, retries rate limits, surfaces content refusals', () => {
    expect(parseMinimaxError(401, readJsonFixture(fixtures, 'error-authentication.json'))).toMatchObject({ code: '1004', disablesChannel: true });
    expect(parseMinimaxError(401, { base_resp: { status_code: 2049, status_msg: 'invalid api key' } })).toMatchObject({ disablesChannel: true });
    expect(parseMinimaxError(402, { base_resp: { status_code: 1008, status_msg: 'insufficient balance' } })).toMatchObject({ disablesChannel: true });
    for (const code of [1002, 1039]) {
      expect(parseMinimaxError(429, { base_resp: { status_code: code, status_msg: 'rate limit' } })).toMatchObject({ retryable: true, disablesChannel: false });
    }
    expect(parseMinimaxError(400, readJsonFixture(fixtures, 'error-input-sensitive.json'))).toEqual({
      status: 400,
      message: 'input new_sensitive',
      type: 'content_policy_violation',
      code: '1026',
      retryable: false,
      disablesChannel: false,
    });
    // An HTTP-level failure without base_resp is read as OpenAI's.
    expect(parseMinimaxError(401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } })).toMatchObject({
      disablesChannel: true,
    });
  });

  it('gives failures reported with HTTP 200 the status their code stands for', () => {
    expect([1004, 2049, 1008, 1002, 1039, 1026, 1027, 1000, 2013].map(statusForMinimaxCode)).toEqual([401, 401, 402, 429, 429, 400, 400, 500, 400]);
  });
});
