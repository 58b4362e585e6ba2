import { openAIChatRequestSchema } from '@switchboard/contracts';
import type { ChannelTarget, ConvertedResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { baiduChatUrl, baiduEmbeddingsUrl } from './baidu-endpoints.ts';
import { createBaiduTransport } from './baidu-transport.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { parseBaiduError } from './parse-baidu-error.ts';

const jsonHeaders = { 'content-type': 'application/json' };

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw new Error(`the chat request cannot be converted for Baidu: ${parsed.error.issues[0]?.message ?? 'invalid body'}`);
  const { body, warnings } = convertChatRequest(parsed.data);
  return { url: baiduChatUrl(target.baseUrl, request.upstreamModel), method: 'POST', headers: jsonHeaders, body: JSON.stringify(body), warnings };
}

function buildEmbeddingsRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const body = convertEmbeddingsRequest(request.body);
  return { url: baiduEmbeddingsUrl(target.baseUrl, request.upstreamModel), method: 'POST', headers: jsonHeaders, body: JSON.stringify(body) };
}

const chatResponse: ConvertedResponse = { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter };

const embeddingsResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertEmbeddingsResponse,
  // Embeddings are never streamed; a stream converter that forwards nothing keeps the type honest.
  createStreamConverter: () => ({ push: () => [], usage: () => undefined, takeText: () => '' }),
};

/**
 * Baidu ERNIE v1 / Wenxin Workshop (channel type 15): OpenAI chat and embeddings requests converted
 * to the `wenxinworkshop` API, authenticated with an OAuth access token from the `APIKey|SecretKey`
 * key. Baidu's v1 API has no model list or balance endpoint.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/clntwmv7t
 */
export const baiduProvider: Provider = {
  id: 'baidu',
  channelTypes: [15],
  transport: createBaiduTransport(),
  chat: { buildRequest: buildChatRequest, response: chatResponse },
  embeddings: { buildRequest: buildEmbeddingsRequest, response: embeddingsResponse },
  parseError: parseBaiduError,
};
