import { openAIChatRequestSchema } from '@switchboard/contracts';
import type { ChannelTarget, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { listCohereModels } from './cohere-models.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertRerankRequest, convertRerankResponse } from './convert-rerank.ts';
import { ndjsonAccept, ndjsonTransport } from './ndjson-transport.ts';
import { parseCohereError } from './parse-cohere-error.ts';

function headers(target: ChannelTarget, stream: boolean): Record<string, string> {
  return { authorization: `Bearer ${target.key}`, 'content-type': 'application/json', accept: stream ? ndjsonAccept : 'application/json' };
}

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw new Error(`the chat request cannot be converted for Cohere: ${parsed.error.issues[0]?.message ?? 'invalid body'}`);
  const { body, warnings } = convertChatRequest(parsed.data, request.upstreamModel);
  return { url: `${target.baseUrl}/v1/chat`, method: 'POST', headers: headers(target, request.stream), body: JSON.stringify(body), warnings };
}

function buildRerankRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const body = convertRerankRequest(request.body ?? {}, request.upstreamModel);
  return { url: `${target.baseUrl}/v1/rerank`, method: 'POST', headers: headers(target, false), body: JSON.stringify(body) };
}

/**
 * Cohere (channel type 34): chat through the v1 Chat API (`message`, `chat_history`, `preamble`), as
 * new-api relays it, and rerank through v1 Rerank; the key as a bearer token. v1 is kept because it
 * is what new-api users' channels point at and it serves every Command model.
 * @see https://docs.cohere.com/v1/reference/chat
 */
export const cohereProvider: Provider = {
  id: 'cohere',
  channelTypes: [34],
  transport: ndjsonTransport,
  chat: {
    buildRequest: buildChatRequest,
    response: { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter },
  },
  rerank: {
    buildRequest: buildRerankRequest,
    response: {
      kind: 'convert',
      convertResponse: convertRerankResponse,
      // Rerank answers are never streamed; a converter that emits nothing keeps the contract whole.
      createStreamConverter: () => ({ push: () => [], usage: () => undefined, takeText: () => '' }),
    },
  },
  parseError: parseCohereError,
  listModels: listCohereModels,
};
