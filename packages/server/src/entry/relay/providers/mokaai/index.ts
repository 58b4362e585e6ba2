import type { ChannelTarget, PassThroughResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { bearerHeaders } from '../openai-compatible/create-openai-compatible-provider.ts';
import { parseOpenAIError } from '../openai-compatible/openai-error.ts';
import { extractOpenAIStreamText, extractOpenAIUsage } from '../openai-compatible/openai-usage.ts';
import { convertEmbeddingsRequest } from './convert-embeddings-request.ts';

function buildEmbeddingsRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const { body, warnings } = convertEmbeddingsRequest(request.body, request.upstreamModel);
  return {
    url: `${target.baseUrl}/embeddings`,
    method: 'POST',
    headers: { ...bearerHeaders(target), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
  };
}

/** MokaAI answers in OpenAI's embeddings shape (`data[].embedding`, `usage`): passed through as it is. */
const openAIShapedAnswer: PassThroughResponse = { kind: 'pass-through', extractUsage: extractOpenAIUsage, extractStreamText: extractOpenAIStreamText };

/**
 * MokaAI (channel type 44): the hosted M3E embedding models (`m3e-small`, `m3e-base`, `m3e-large`)
 * at `{base}/embeddings`, with the bearer key, as new-api relays them. MokaAI has no chat, model list
 * or balance API that new-api uses, so only embeddings are offered; errors are OpenAI-shaped.
 * @see https://huggingface.co/moka-ai/m3e-base (the M3E models)
 */
export const mokaaiProvider: Provider = {
  id: 'mokaai',
  channelTypes: [44],
  embeddings: { buildRequest: buildEmbeddingsRequest, response: openAIShapedAnswer },
  parseError: parseOpenAIError,
};
