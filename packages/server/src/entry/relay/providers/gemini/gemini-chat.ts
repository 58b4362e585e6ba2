import { openAIChatRequestSchema } from '@switchboard/contracts';
import { callerRequestOf } from '../../pipeline/answer-format.ts';
import { RequestNotConvertible, type ConvertedResponse, type RelayRequest } from '../../provider.ts';
import { convertChatRequest, thinkingFromModel, type ConvertedGeminiRequest, type GeminiRequestBody } from './convert-chat-request.ts';
import { geminiRequestSchema } from './gemini-api.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertEmbeddingsResponse } from './convert-embeddings.ts';

/** What Gemini and Gemini-on-Vertex share: reading the caller's OpenAI request and converting back. */
export function geminiRequestFromRelay(request: RelayRequest): ConvertedGeminiRequest {
  // A Gemini-format caller's own request goes as it came (safety settings, thinking config, schemas).
  const original = geminiRequestSchema.safeParse(callerRequestOf(request.body, 'gemini'));
  if (original.success) return { model: thinkingFromModel(request.upstreamModel).model, body: original.data as unknown as GeminiRequestBody, warnings: [] };
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw RequestNotConvertible.fromIssue('Gemini', parsed.error.issues[0]);
  return convertChatRequest(parsed.data, request.upstreamModel);
}

/** The method part of a Gemini URL: streams ask for server-sent events. */
export function generateMethod(stream: boolean): string {
  return stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
}

export const geminiChatResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertChatResponse,
  createStreamConverter: createChatStreamConverter,
};

export const geminiEmbeddingsResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertEmbeddingsResponse,
  // Embeddings are never streamed; a stream converter that forwards nothing keeps the type honest.
  createStreamConverter: () => ({ push: () => [], usage: () => undefined, takeText: () => '' }),
};
