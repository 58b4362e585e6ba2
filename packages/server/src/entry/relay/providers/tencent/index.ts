import { openAIChatRequestSchema } from '@switchboard/contracts';
import type { ChannelTarget, ConvertedResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertChatRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { convertEmbeddingsRequest, convertEmbeddingsResponse } from './convert-embeddings.ts';
import { parseTencentError } from './parse-tencent-error.ts';
import { hunyuanVersion } from './tencent-api.ts';
import { createTencentTransport } from './tencent-transport.ts';

/** API 3.0 names the action in a header; every action is a POST of JSON to the host's root. */
function actionRequest(target: ChannelTarget, action: string, body: unknown, warnings?: readonly string[]): UpstreamRequest {
  return {
    url: `${target.baseUrl}/`,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-TC-Action': action, 'X-TC-Version': hunyuanVersion },
    body: JSON.stringify(body),
    ...(warnings ? { warnings } : {}),
  };
}

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw new Error(`the chat request cannot be converted for Tencent: ${parsed.error.issues[0]?.message ?? 'invalid body'}`);
  const { body, warnings } = convertChatRequest(parsed.data, request.upstreamModel);
  return actionRequest(target, 'ChatCompletions', body, warnings);
}

function buildEmbeddingsRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  return actionRequest(target, 'GetEmbedding', convertEmbeddingsRequest(request.body));
}

const chatResponse: ConvertedResponse = { kind: 'convert', convertResponse: convertChatResponse, createStreamConverter: createChatStreamConverter };

const embeddingsResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertEmbeddingsResponse,
  // Embeddings are never streamed; a stream converter that forwards nothing keeps the type honest.
  createStreamConverter: () => ({ push: () => [], usage: () => undefined, takeText: () => '' }),
};

/**
 * Tencent Hunyuan (channel type 23): OpenAI chat requests converted to the ChatCompletions action
 * and embeddings to GetEmbedding (version 2023-09-01), signed with TC3-HMAC-SHA256 from the
 * `AppId|SecretId|SecretKey` key. The API offers no model list or balance for the gateway to read.
 * @see https://cloud.tencent.com/document/product/1729/97732
 */
export const tencentProvider: Provider = {
  id: 'tencent',
  channelTypes: [23],
  transport: createTencentTransport(),
  chat: { buildRequest: buildChatRequest, response: chatResponse },
  embeddings: { buildRequest: buildEmbeddingsRequest, response: embeddingsResponse },
  parseError: parseTencentError,
};
