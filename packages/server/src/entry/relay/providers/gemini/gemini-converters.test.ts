import { describe, expect, it } from 'vitest';
import { openAIChatRequestSchema, type OpenAIChatChunk } from '@switchboard/contracts';
import type { ConversionContext } from '../../provider.ts';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import { cleanSchema } from './clean-schema.ts';
import { convertChatRequest, defaultSafetySettings, thinkingFromModel } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { parseGeminiError } from './parse-gemini-error.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'gemini-flash', upstreamModel: 'gemini-2.5-flash', requestId: 'req9', createdAt: 1_700_000_000 };
const request = (body: Record<string, unknown>) => openAIChatRequestSchema.parse({ model: 'gemini-flash', ...body });

describe('OpenAI chat request → Gemini generateContent request', () => {
  it('converts roles, system instruction, images, audio, tools, tool results and generation settings', () => {
    const { model, body, warnings } = convertChatRequest(
      request({
        messages: [
          { role: 'system', content: 'Answer in French.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Weather here?' },
              { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
              { type: 'image_url', image_url: { url: 'https://example.com/photo.png' } },
              { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Lyon"}' } }],
          },
          { role: 'tool', tool_call_id: 'call_9', content: '{"temp":18}' },
          { role: 'tool', tool_call_id: 'call_9', content: 'sunny' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather now',
              parameters: {
                $schema: 'http://json-schema.org/draft-07/schema#',
                type: 'object',
                additionalProperties: false,
                properties: { city: { type: 'string', default: 'Paris' } },
                required: ['city'],
              },
            },
          },
          { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } },
        ],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        max_tokens: 256,
        temperature: 0.2,
        top_p: 0.9,
        stop: ['END'],
        response_format: { type: 'json_object' },
      }),
      'gemini-2.5-flash',
    );
    expect(model).toBe('gemini-2.5-flash');
    expect(warnings).toEqual([]);
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'Answer in French.' }] },
      contents: [
        {
          role: 'user',
          parts: [
            { text: 'Weather here?' },
            { inlineData: { mimeType: 'image/jpeg', data: '/9j/4AAQ' } },
            { fileData: { mimeType: 'image/png', fileUri: 'https://example.com/photo.png' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
          ],
        },
        { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Lyon' } } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { temp: 18 } } },
            { functionResponse: { name: 'get_weather', response: { content: 'sunny' } } },
          ],
        },
      ],
      tools: [
        {
          functionDeclarations: [
            { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
            { name: 'ping' },
          ],
        },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      safetySettings: defaultSafetySettings,
      generationConfig: { maxOutputTokens: 256, temperature: 0.2, topP: 0.9, stopSequences: ['END'], responseMimeType: 'application/json' },
    });
  });

  it('reads new-api thinking suffixes and reasoning_effort', () => {
    expect(thinkingFromModel('gemini-2.5-flash-nothinking')).toEqual({ model: 'gemini-2.5-flash', thinkingConfig: { thinkingBudget: 0 } });
    expect(thinkingFromModel('gemini-2.5-pro-thinking-2048')).toEqual({
      model: 'gemini-2.5-pro',
      thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
    });
    expect(thinkingFromModel('gemini-2.5-pro-thinking')).toEqual({ model: 'gemini-2.5-pro', thinkingConfig: { includeThoughts: true } });
    const converted = convertChatRequest(request({ messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'low' }), 'gemini-2.5-flash');
    expect(converted.body.generationConfig.thinkingConfig).toEqual({ thinkingBudget: 1024, includeThoughts: true });
  });

  it('sends thought signatures back on the functionCall parts they came with, streamed or not', () => {
    const answer = convertChatResponse(readJsonFixture(fixtures, 'generate-content-function-call.json'), context).body.choices[0]?.message;
    const converter = createChatStreamConverter(context);
    const streamedCalls = parseSseText(readStreamFixture(fixtures, 'stream-generate-content.chunks.txt'))
      .flatMap((event) => converter.push(event) as OpenAIChatChunk[])
      .flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? [])
      .map(({ index: _index, ...call }) => call);
    const followUp = (toolCalls: unknown[]) =>
      convertChatRequest(
        request({
          messages: [
            { role: 'user', content: 'Weather?' },
            { role: 'assistant', content: null, tool_calls: toolCalls },
            ...toolCalls.map((call) => ({ role: 'tool', tool_call_id: (call as { id: string }).id, content: '{"temp":4}' })),
          ],
        }),
        'gemini-3-pro-preview',
      ).body.contents[1];
    expect(followUp(answer?.tool_calls ?? [])).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'get_weather', args: { location: 'Boston, MA' } }, thoughtSignature: 'CiQB0e2Kb1' }],
    });
    // Of parallel calls only the first carries a signature, and only it gets one back.
    expect(followUp(streamedCalls)).toEqual({
      role: 'model',
      parts: [
        { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: 'CtwFAdHtim9+q4rVGpTNxD2nHhl3pLk1eSW0' },
        { functionCall: { name: 'get_time', args: { zone: 'CET' } } },
      ],
    });
  });

  it('strips unsupported JSON-schema keywords at every depth but keeps property names', () => {
    expect(
      cleanSchema({
        type: 'object',
        properties: { default: { type: 'string', default: 'x' }, list: { type: 'array', items: { type: 'object', additionalProperties: false } } },
      }),
    ).toEqual({
      type: 'object',
      properties: { default: { type: 'string' }, list: { type: 'array', items: { type: 'object' } } },
    });
  });
});

describe('Gemini answer → OpenAI chat completion', () => {
  it('converts thoughts, text and function calls, with cached and thinking tokens in usage', () => {
    const result = convertChatResponse(readJsonFixture(fixtures, 'generate-content-function-call.json'), context);
    expect(result.body).toEqual({
      id: 'chatcmpl-mAitaJmhNPShz7IPmMTL0Qg',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'gemini-flash',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Let me look that up.',
            reasoning_content: 'The user wants the weather; call the tool.',
            tool_calls: [
              {
                id: 'call_req9_0',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"Boston, MA"}' },
                extra_content: { google: { thought_signature: 'CiQB0e2Kb1' } },
              },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 1200,
        completion_tokens: 90,
        total_tokens: 1290,
        prompt_tokens_details: { cached_tokens: 1000 },
        completion_tokens_details: { reasoning_tokens: 50 },
      },
    });
    expect(result.usage).toEqual({ promptTokens: 1200, completionTokens: 90, cachedTokens: 1000 });
  });

  it('answers plain text, and a blocked prompt as content_filter', () => {
    const text = convertChatResponse(readJsonFixture(fixtures, 'generate-content-text.json'), context);
    expect(text.body.choices).toEqual([
      { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'AI learns patterns from data to make predictions.' } },
    ]);
    expect(text.body.usage).toEqual({ prompt_tokens: 8, completion_tokens: 10, total_tokens: 18 });
    const blocked = convertChatResponse({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } }, context);
    expect(blocked.body.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('maps finish reasons', () => {
    expect(mapFinishReason('MAX_TOKENS', false)).toBe('length');
    expect(mapFinishReason('SAFETY', false)).toBe('content_filter');
    expect(mapFinishReason('STOP', true)).toBe('tool_calls');
    expect(mapFinishReason(undefined, false)).toBeNull();
  });
});

describe('Gemini stream → OpenAI chunks', () => {
  it('converts the recorded stream: text deltas, whole function calls, finish with usage', () => {
    const converter = createChatStreamConverter(context);
    const chunks = parseSseText(readStreamFixture(fixtures, 'stream-generate-content.chunks.txt')).flatMap((event) =>
      converter.push(event),
    ) as OpenAIChatChunk[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'The' },
      { content: ' weather' },
      {
        tool_calls: [
          {
            index: 0,
            id: 'call_req9_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            extra_content: { google: { thought_signature: 'CtwFAdHtim9+q4rVGpTNxD2nHhl3pLk1eSW0' } },
          },
        ],
      },
      { tool_calls: [{ index: 1, id: 'call_req9_1', type: 'function', function: { name: 'get_time', arguments: '{"zone":"CET"}' } }] },
      {},
    ]);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)?.usage).toEqual({ prompt_tokens: 9, completion_tokens: 32, total_tokens: 41, completion_tokens_details: { reasoning_tokens: 12 } });
    expect(chunks[0]?.id).toBe('chatcmpl-Gv5taOf7OYO4z7IPkqPoqQw');
    expect(converter.usage()).toEqual({ promptTokens: 9, completionTokens: 32, cachedTokens: 0 });
    expect(converter.takeText()).toBe('The weatherget_weather{"location":"Paris"}get_time{"zone":"CET"}');
  });
});

describe('Gemini stream errors', () => {
  it('forwards an error event after the stream began as an OpenAI error object, keeping the usage so far', () => {
    const converter = createChatStreamConverter(context);
    const out = parseSseText(readStreamFixture(fixtures, 'stream-error-overloaded.chunks.txt')).flatMap((event) => converter.push(event));
    expect(out.at(-1)).toEqual({ error: { message: 'The model is overloaded. Please try again later.', type: 'UNAVAILABLE' } });
    expect((out.slice(0, -1) as OpenAIChatChunk[]).map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'The weather in Paris' },
    ]);
    expect(converter.usage()).toEqual({ promptTokens: 9, completionTokens: 4, cachedTokens: 0 });
  });
});

describe('Gemini embeddings', () => {
  it('batches every input and converts the vectors back', () => {
    expect(convertEmbeddingsRequest({ input: ['a', 'b'], dimensions: 3 }, 'text-embedding-004')).toEqual({
      requests: [
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'a' }] }, outputDimensionality: 3 },
        { model: 'models/text-embedding-004', content: { parts: [{ text: 'b' }] }, outputDimensionality: 3 },
      ],
    });
    const result = convertEmbeddingsResponse(readJsonFixture(fixtures, 'batch-embed-contents.json'), { ...context, model: 'text-embedding-004' });
    expect(result.body).toMatchObject({
      object: 'list',
      model: 'text-embedding-004',
      data: [{ index: 0, embedding: [0.013168523, -0.008711934, -0.046782676] }, { index: 1 }],
    });
  });
});

describe('Gemini errors', () => {
  it('disables the channel on an invalid key, not on exhausted quota', () => {
    expect(parseGeminiError(400, readJsonFixture(fixtures, 'error-api-key-invalid.json'))).toEqual({
      status: 400,
      message: 'API key not valid. Please pass a valid API key.',
      type: 'INVALID_ARGUMENT',
      code: 'API_KEY_INVALID',
      disablesChannel: true,
      retryable: true,
    });
    expect(parseGeminiError(429, readJsonFixture(fixtures, 'error-resource-exhausted.json'))).toMatchObject({
      type: 'RESOURCE_EXHAUSTED',
      disablesChannel: false,
    });
  });
});
