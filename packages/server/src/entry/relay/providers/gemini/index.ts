import type { ChannelTarget, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { convertEmbeddingsRequest } from './convert-embeddings.ts';
import { listGeminiModels } from './gemini-models.ts';
import { defaultGeminiVersion } from './gemini-api.ts';
import { geminiChatResponse, geminiEmbeddingsResponse, geminiRequestFromRelay, generateMethod } from './gemini-chat.ts';
import { geminiNativeFor } from './gemini-native-answer.ts';
import { parseGeminiError } from './parse-gemini-error.ts';

/** `{base}/{version}/models/{model}:{method}`; the version comes from the channel's `other` field. */
function modelUrl(target: ChannelTarget, model: string, method: string): string {
  return `${target.baseUrl}/${target.other.trim() || defaultGeminiVersion}/models/${model}:${method}`;
}

function headers(target: ChannelTarget, stream: boolean): Record<string, string> {
  const result: Record<string, string> = { 'x-goog-api-key': target.key, 'content-type': 'application/json' };
  if (stream) result['accept'] = 'text/event-stream';
  return result;
}

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const { model, body, warnings } = geminiRequestFromRelay(request);
  return {
    url: modelUrl(target, model, generateMethod(request.stream)),
    method: 'POST',
    headers: headers(target, request.stream),
    body: JSON.stringify(body),
    warnings,
  };
}

function buildEmbeddingsRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const body = convertEmbeddingsRequest(request.body, request.upstreamModel);
  return { url: modelUrl(target, request.upstreamModel, 'batchEmbedContents'), method: 'POST', headers: headers(target, false), body: JSON.stringify(body) };
}

/**
 * Google Gemini (channel type 24): OpenAI chat and embeddings requests converted to the Gemini API.
 * @see https://ai.google.dev/api
 */
export const geminiProvider: Provider = {
  id: 'gemini',
  channelTypes: [24],
  chat: { buildRequest: buildChatRequest, response: geminiChatResponse, nativeAnswer: geminiNativeFor },
  embeddings: { buildRequest: buildEmbeddingsRequest, response: geminiEmbeddingsResponse },
  parseError: parseGeminiError,
  listModels: listGeminiModels,
};
