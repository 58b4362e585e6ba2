import { describe, expect, it } from 'vitest';
import { parseSseText } from '@switchboard/contracts';
import { multipartField } from '../../../../core/platform/multipart-form.ts';
import type { ConversionContext } from '../../provider.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { pendingUploadField } from './dify-api.ts';
import { decodeDataUrl, uploadForm } from './dify-transport.ts';
import { parseDifyError } from './parse-dify-error.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'dify-app', upstreamModel: 'dify-app', requestId: 'req-1', createdAt: 1_700_000_000 };
const pixel = 'data:image/png;base64,iVBORw0KGgo=';

type Chunk = {
  choices: { delta: { content?: string; reasoning_content?: string; role?: string }; finish_reason: string | null }[];
  usage?: unknown;
  error?: unknown;
};

function convertStream(name: string): { chunks: Chunk[]; usage: unknown } {
  const converter = createChatStreamConverter(context);
  const chunks = parseSseText(readStreamFixture(fixtures, name)).flatMap((event) => converter.push(event)) as Chunk[];
  return { chunks, usage: converter.usage() };
}

describe('Dify request conversion', () => {
  it('sends a lone user message as the query, blocking, under the caller or a default user', () => {
    expect(convertChatRequest({ messages: [{ role: 'user', content: 'What are the specs of the iPhone 13 Pro Max?' }] }, false)).toEqual({
      inputs: {},
      query: 'What are the specs of the iPhone 13 Pro Max?',
      response_mode: 'blocking',
      user: 'switchboard',
      auto_generate_name: false,
      files: [],
    });
  });

  it('writes a conversation as new-api transcript and passes the app inputs', () => {
    const request = convertChatRequest(
      {
        user: 'abc-123',
        inputs: { city: 'Paris' },
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: [{ type: 'text', text: 'Specs?' }] },
        ],
      },
      true,
    );
    expect(request).toMatchObject({ user: 'abc-123', inputs: { city: 'Paris' }, response_mode: 'streaming' });
    expect(request.query).toBe('SYSTEM: \nBe brief.\nUSER: \nHi\nASSISTANT: \nHello!\nUSER: \nSpecs?\n');
  });

  it('continues a Dify conversation with the last user message only', () => {
    const request = convertChatRequest(
      {
        conversation_id: '45701982-8118-4bc5-8e9b-64562b4555f2',
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: 'And the price?' },
        ],
      },
      false,
    );
    expect(request).toMatchObject({ conversation_id: '45701982-8118-4bc5-8e9b-64562b4555f2', query: 'And the price?' });
  });

  it('references remote images and marks inline ones for upload', () => {
    const request = convertChatRequest(
      {
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Compare' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
              { type: 'image_url', image_url: { url: pixel } },
            ],
          },
        ],
      },
      false,
    );
    expect(request.query).toBe('Compare');
    expect(request.files).toEqual([
      { type: 'image', transfer_mode: 'remote_url', url: 'https://example.com/a.png' },
      { type: 'image', transfer_mode: 'local_file', [pendingUploadField]: pixel },
    ]);
  });

  it('builds the upload form Dify reads: the user field and the decoded file', () => {
    const image = decodeDataUrl(pixel);
    expect(image).toEqual({ mimeType: 'image/png', bytes: Buffer.from('iVBORw0KGgo=', 'base64') });
    const form = uploadForm('abc-123', image ?? { mimeType: '', bytes: Buffer.alloc(0) });
    expect(multipartField(form.body, form.contentType, 'user')).toBe('abc-123');
    expect(form.body.includes('filename="image.png"\r\nContent-Type: image/png')).toBe(true);
    expect(form.body.includes(Buffer.from('iVBORw0KGgo=', 'base64'))).toBe(true);
    expect(decodeDataUrl('https://example.com/a.png')).toBeUndefined();
  });
});

describe('Dify answer conversion', () => {
  it('converts a blocking answer with the app usage and the conversation id', () => {
    const { body, usage } = convertChatResponse(readJsonFixture(fixtures, 'chat-blocking.json'), context);
    expect(body).toMatchObject({
      id: 'chatcmpl-9da23599-e713-473b-982c-4328d4f5c78a',
      object: 'chat.completion',
      model: 'dify-app',
      conversation_id: '45701982-8118-4bc5-8e9b-64562b4555f2',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant' } }],
      usage: { prompt_tokens: 1033, completion_tokens: 128, total_tokens: 1161 },
    });
    expect(body.choices[0]?.message.content).toContain('iPhone 13 Pro Max specs');
    expect(usage).toEqual({ promptTokens: 1033, completionTokens: 128 });
  });

  it('streams chat text and finishes with message_end usage, skipping workflow and TTS events', () => {
    const { chunks, usage } = convertStream('chat-streaming.chunks.txt');
    expect(chunks[0]?.choices[0]?.delta).toEqual({ role: 'assistant', content: ' I' });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(" I'm glad to meet you!");
    expect(chunks.at(-1)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: { prompt_tokens: 1033, completion_tokens: 135, total_tokens: 1168 } });
    expect(usage).toEqual({ promptTokens: 1033, completionTokens: 135 });
  });

  it('streams an agent: the tool call once as reasoning, then the answer', () => {
    const { chunks, usage } = convertStream('agent-streaming.chunks.txt');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning_content ?? '').join('')).toBe(
      'Tool dalle3: {"dalle3": {"prompt": "cute Japanese anime girl with white hair, blue eyes, bunny girl suit"}}\n',
    );
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(
      'I have created an image of a cute Japanese anime girl with white hair.',
    );
    expect(usage).toEqual({ promptTokens: 1440, completionTokens: 67 });
  });

  it('ends a stream on an error event with the vendor message', () => {
    const { chunks, usage } = convertStream('stream-error.chunks.txt');
    expect(chunks.at(-1)).toEqual({
      error: { message: '[openai] Rate Limit Error, Error code: 429', type: 'completion_request_error', code: 'completion_request_error' },
    });
    expect(usage).toBeUndefined();
  });

  it('surfaces a moderation replacement as content_filter', () => {
    const converter = createChatStreamConverter(context);
    converter.push({ event: '', data: JSON.stringify({ event: 'message_replace', message_id: 'm', answer: 'This content violates our policy.' }) });
    const [finishing] = converter.push({
      event: '',
      data: JSON.stringify({ event: 'message_end', message_id: 'm', metadata: { usage: { prompt_tokens: 9, completion_tokens: 3 } } }),
    }) as Chunk[];
    expect(finishing?.choices[0]?.finish_reason).toBe('content_filter');
  });
});

describe('Dify errors', () => {
  it('disables the channel for an invalid key or a dead app, not for a rate limit', () => {
    expect(parseDifyError(401, readJsonFixture(fixtures, 'error-unauthorized.json'))).toMatchObject({
      message: 'Access token is invalid',
      disablesChannel: true,
    });
    expect(parseDifyError(400, readJsonFixture(fixtures, 'error-provider-quota.json'))).toMatchObject({
      code: 'provider_quota_exceeded',
      disablesChannel: true,
    });
    expect(parseDifyError(429, readJsonFixture(fixtures, 'error-rate-limit.json'))).toMatchObject({ code: 'too_many_requests', disablesChannel: false });
  });
});
