import { describe, expect, it } from 'vitest';
import { openAIChatRequestSchema } from '@switchboard/contracts';
import { withCallerRequest } from '../../pipeline/answer-format.ts';
import type { ConversionContext, RelayRequest } from '../../provider.ts';
import { geminiRequestFromRelay } from '../../providers/gemini/gemini-chat.ts';
import { parseSseText } from '@switchboard/contracts';
import { readJsonFixture, readStreamFixture } from '../../providers/claude/testing/fixtures.ts';
import { convertChatRequest } from '../../providers/gemini/convert-chat-request.ts';
import { convertChatResponse } from '../../providers/gemini/convert-chat-response.ts';
import { createChatStreamConverter } from '../../providers/gemini/convert-chat-stream.ts';
import { geminiRequestSchema } from '../../providers/gemini/gemini-api.ts';
import { convertGenerateAnswer } from './convert-generate-answer.ts';
import { convertGenerateRequest } from './convert-generate-request.ts';
import { createGenerateStreamWriter } from './generate-stream-writer.ts';

const geminiFixtures = new URL('../../providers/gemini/__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'gemini-2.5-flash', upstreamModel: 'gemini-2.5-flash', requestId: 'req3', createdAt: 1_700_000_000 };

const geminiRequest = geminiRequestSchema.parse({
  systemInstruction: { parts: [{ text: 'Be terse.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Weather in Rome?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
    { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Rome' } } }] },
    { role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { temp: 25 } } }] },
  ],
  tools: [
    { functionDeclarations: [{ name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { city: { type: 'string' } } } }] },
  ],
  toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
  generationConfig: { temperature: 0.4, maxOutputTokens: 100, stopSequences: ['END'] },
});

describe('Gemini request → OpenAI chat request', () => {
  it('gives function calls ids and answers them by name', () => {
    const body = convertGenerateRequest(geminiRequest, 'gemini-2.5-flash', true);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be terse.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Rome?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
        ],
      },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: '{"temp":25}' },
    ]);
    expect(body).toMatchObject({
      temperature: 0.4,
      max_tokens: 100,
      stop: ['END'],
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('survives the trip through the Gemini converter', () => {
    const { body } = convertChatRequest(openAIChatRequestSchema.parse(convertGenerateRequest(geminiRequest, 'gemini-2.5-flash', false)), 'gemini-2.5-flash');
    expect(body.contents).toEqual(geminiRequest.contents);
    expect(body.systemInstruction).toEqual(geminiRequest.systemInstruction);
    expect(body.tools).toEqual(geminiRequest.tools);
    expect(body.generationConfig).toEqual({ temperature: 0.4, maxOutputTokens: 100, stopSequences: ['END'] });
  });

  it('reaches a Gemini channel as the caller sent it (safety settings, thinking config kept)', () => {
    const original = {
      ...geminiRequest,
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_ONLY_HIGH' }],
      generationConfig: { thinkingConfig: { thinkingBudget: 512 } },
    };
    const body = withCallerRequest(convertGenerateRequest(original, 'gemini-2.5-flash', false), { dialect: 'gemini', body: original });
    const relayed: RelayRequest = {
      capability: 'chat',
      path: '/v1/chat/completions',
      contentType: 'application/json',
      rawBody: Buffer.alloc(0),
      body,
      bodyChanged: false,
      model: 'gemini-2.5-flash',
      upstreamModel: 'gemini-2.5-pro',
      stream: false,
    };
    expect(geminiRequestFromRelay(relayed)).toEqual({ model: 'gemini-2.5-pro', body: original, warnings: [] });
  });
});

describe('OpenAI answers → Gemini answers', () => {
  it('renders a Gemini answer back with its parts, thought signature and usage', () => {
    const original = readJsonFixture(geminiFixtures, 'generate-content-function-call.json') as {
      candidates: { content: { parts: Record<string, unknown>[] } }[];
    };
    const answer = convertGenerateAnswer(convertChatResponse(original, context).body, context);
    expect(answer).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'The user wants the weather; call the tool.', thought: true },
              { text: 'Let me look that up.' },
              { functionCall: { name: 'get_weather', args: { location: 'Boston, MA' } }, thoughtSignature: 'CiQB0e2Kb1' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 1200, candidatesTokenCount: 40, totalTokenCount: 1290, cachedContentTokenCount: 1000, thoughtsTokenCount: 50 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'req3',
    });
  });

  it('renders a stream as SSE events and as a JSON array, the last event with finish and usage', () => {
    const render = (framing: 'sse' | 'array') => {
      const converter = createChatStreamConverter(context);
      const writer = createGenerateStreamWriter(context, framing);
      let text = '';
      for (const upstreamEvent of parseSseText(readStreamFixture(geminiFixtures, 'stream-generate-content.chunks.txt')))
        for (const chunk of converter.push(upstreamEvent)) text += writer.push(chunk);
      return text + writer.end(converter.usage());
    };
    const events = parseSseText(render('sse')).map((item) => JSON.parse(item.data) as Record<string, unknown>);
    expect(events.map((item) => (item.candidates as { content: { parts: unknown[] } }[])[0]?.content.parts)).toEqual([
      [{ text: 'The' }],
      [{ text: ' weather' }],
      [
        { functionCall: { name: 'get_weather', args: { location: 'Paris' } }, thoughtSignature: 'CtwFAdHtim9+q4rVGpTNxD2nHhl3pLk1eSW0' },
        { functionCall: { name: 'get_time', args: { zone: 'CET' } } },
      ],
    ]);
    expect(events.at(-1)).toMatchObject({
      candidates: [{ finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 20, totalTokenCount: 41, thoughtsTokenCount: 12 },
    });
    const array = JSON.parse(render('array')) as unknown[];
    expect(array).toHaveLength(3);
    expect(array[2]).toEqual(events[2]);
  });
});
