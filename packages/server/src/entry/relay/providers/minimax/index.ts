import type { ChannelTarget, ConvertedResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { bearerHeaders, upstreamBody } from '../openai-compatible/create-openai-compatible-provider.ts';
import { convertChatResponse, createChatStreamConverter } from './convert-chat.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { minimaxTransport } from './minimax-transport.ts';
import { parseMinimaxError } from './parse-minimax-error.ts';

function jsonHeaders(target: ChannelTarget, stream: boolean): Record<string, string> {
  const headers: Record<string, string> = { ...bearerHeaders(target), 'content-type': 'application/json' };
  if (stream) headers['accept'] = 'text/event-stream';
  return headers;
}

/** chatcompletion_v2 takes OpenAI's request as it is; only the address differs. */
function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  return { url: `${target.baseUrl}/v1/text/chatcompletion_v2`, method: 'POST', headers: jsonHeaders(target, request.stream), body: upstreamBody(request) };
}

function buildEmbeddingsRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const { body, warnings } = convertEmbeddingsRequest(request.body, request.upstreamModel);
  return { url: `${target.baseUrl}/v1/embeddings`, method: 'POST', headers: jsonHeaders(target, false), body: JSON.stringify(body), warnings };
}

/** chatcompletion_v2 answers are OpenAI's; only the stream's last chunk and mid-stream failures need work. */
const minimaxChatResponse: ConvertedResponse = { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter };

const minimaxEmbeddingsResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertEmbeddingsResponse,
  // Embeddings are never streamed; a stream converter that forwards nothing keeps the type honest.
  createStreamConverter: () => ({ push: () => [], usage: () => undefined, takeText: () => '' }),
};

/**
 * MiniMax (channel type 35): chat through the OpenAI-compatible chatcompletion_v2 API (forwarded as
 * it is, answers nearly so), embeddings (`embo-01`) converted from MiniMax's own format, the bearer key on both.
 * Failures come with HTTP 200 and a `base_resp` status; the transport turns them into failed answers.
 * @see https://platform.minimaxi.com/document/ChatCompletion%20v2
 */
export const minimaxProvider: Provider = {
  id: 'minimax',
  channelTypes: [35],
  transport: minimaxTransport,
  chat: { buildRequest: buildChatRequest, response: minimaxChatResponse },
  embeddings: { buildRequest: buildEmbeddingsRequest, response: minimaxEmbeddingsResponse },
  parseError: parseMinimaxError,
};
