import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { openAIChatRequestSchema, parseSseText } from '@switchboard/contracts';
import type { ConversionContext } from '../../provider.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertRerankRequest, convertRerankResponse } from './convert-rerank.ts';
import { NdjsonToSse } from './ndjson-transport.ts';
import { parseCohereError } from './parse-cohere-error.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'command-r', upstreamModel: 'command-r', requestId: 'req-1', createdAt: 1_700_000_000 };

describe('Cohere request conversion', () => {
  it('sends the last user message as message, earlier turns as chat_history and system prompts as the preamble', () => {
    const request = openAIChatRequestSchema.parse({
      model: 'command-r',
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: [{ type: 'text', text: 'Which penguins are the tallest?' }] },
      ],
      max_tokens: 200,
      temperature: 0.3,
      top_p: 0.9,
      stop: 'END',
      stream: true,
    });
    const { body, warnings } = convertChatRequest(request, 'command-r-08-2024');
    expect(body).toEqual({
      model: 'command-r-08-2024',
      message: 'Which penguins are the tallest?',
      chat_history: [
        { role: 'USER', message: 'Hi' },
        { role: 'CHATBOT', message: 'Hello!' },
      ],
      preamble: 'You are terse.',
      stream: true,
      max_tokens: 200,
      temperature: 0.3,
      p: 0.9,
      stop_sequences: ['END'],
    });
    expect(warnings).toEqual([]);
  });

  it('reports image parts and tools it cannot send', () => {
    const request = openAIChatRequestSchema.parse({
      model: 'command-r',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
          ],
        },
      ],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }],
    });
    const { body, warnings } = convertChatRequest(request, 'command-r');
    expect(body.message).toBe('What is this?');
    expect(warnings).toEqual(['1 non-text content part(s) dropped: Cohere v1 chat takes text only', 'tools ignored: Cohere v1 chat is relayed as text only']);
  });
});

describe('Cohere answer conversion', () => {
  it('converts a whole answer with its billed units as usage', () => {
    const { body, usage } = convertChatResponse(readJsonFixture(fixtures, 'chat-text.json'), context);
    expect(body).toEqual({
      id: 'chatcmpl-4a2c9b8e-1b7f-4d0e-9a55-6b0a3f8a2f10',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'command-r',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'The tallest living penguins are emperor penguins, standing about 1.1 metres tall.' },
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 31, completion_tokens: 18, total_tokens: 49 },
    });
    expect(usage).toEqual({ promptTokens: 31, completionTokens: 18 });
  });

  it('surfaces a toxic-content stop as content_filter and reads tokens when no units were billed', () => {
    const { body, usage } = convertChatResponse({ text: '', finish_reason: 'ERROR_TOXIC', meta: { tokens: { input_tokens: 5, output_tokens: 0 } } }, context);
    expect(body.choices[0]?.finish_reason).toBe('content_filter');
    expect(usage).toEqual({ promptTokens: 5, completionTokens: 0 });
  });

  it('re-frames the NDJSON stream as events and converts them into chunks with usage at the end', async () => {
    const ndjson = readStreamFixture(fixtures, 'chat-text.chunks.jsonl');
    // Cut in the middle of a multi-byte-free line and mid-line, as TCP may deliver it.
    const pieces = [ndjson.slice(0, 40), ndjson.slice(40, 130), ndjson.slice(130)].map((piece) => Buffer.from(piece));
    const sse = await text(Readable.from(pieces).pipe(new NdjsonToSse()));
    const events = parseSseText(sse);
    expect(events).toHaveLength(5);
    const converter = createChatStreamConverter(context);
    const chunks = events.flatMap((event) => converter.push(event)) as {
      id: string;
      choices: { delta: { content?: string }; finish_reason: string | null }[];
      usage?: unknown;
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'The tallest living penguins are emperor penguins, standing about 1.1 metres tall.',
    );
    expect(chunks[0]?.id).toBe('chatcmpl-e0a6d3f1-8c2b-4e5a-bb7a-0c8f4d2a91e3');
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 31, completion_tokens: 18, total_tokens: 49 } });
    expect(converter.usage()).toEqual({ promptTokens: 31, completionTokens: 18 });
  });
});

describe('Cohere rerank conversion', () => {
  it('keeps query, documents and top_n, and returns documents unless told not to', () => {
    expect(convertRerankRequest({ model: 'rerank', query: 'capital?', documents: ['a', 'b'], top_n: 1 }, 'rerank-english-v3.0')).toEqual({
      model: 'rerank-english-v3.0',
      query: 'capital?',
      documents: ['a', 'b'],
      top_n: 1,
      return_documents: true,
    });
    expect(convertRerankRequest({ query: 'q', documents: ['a'], return_documents: false }, 'm')).toMatchObject({ return_documents: false });
  });

  it('answers in the relay rerank shape, leaving token usage to the local count when Cohere bills search units', () => {
    const { body, usage } = convertRerankResponse(readJsonFixture(fixtures, 'rerank.json'), { ...context, model: 'rerank-english-v3.0' });
    expect(body).toEqual({
      id: '07734bd2-2473-4f07-94e1-0d9f0e6843cf',
      model: 'rerank-english-v3.0',
      results: [
        { index: 2, relevance_score: 0.9998813, document: { text: 'Washington, D.C. is the capital of the United States.' } },
        { index: 0, relevance_score: 0.08381315, document: { text: 'Carson City is the capital city of the American state of Nevada.' } },
      ],
    });
    expect(usage).toBeUndefined();
  });
});

describe('Cohere errors', () => {
  it('disables the channel on an invalid key and retries a rate limit elsewhere', () => {
    expect(parseCohereError(401, readJsonFixture(fixtures, 'error-unauthorized.json'))).toMatchObject({
      status: 401,
      message: 'invalid api token',
      disablesChannel: true,
    });
    const limited = parseCohereError(429, readJsonFixture(fixtures, 'error-rate-limit.json'));
    expect(limited).toMatchObject({ status: 429, type: 'rate_limit_error', retryable: true, disablesChannel: false });
    expect(limited.message).toContain('Trial key');
    expect(parseCohereError(400, { message: 'invalid request: message must be a non-empty string.' })).toMatchObject({ disablesChannel: false });
  });
});
