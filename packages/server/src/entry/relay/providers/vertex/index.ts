import { callerHeadersOf } from '../../pipeline/answer-format.ts';
import type { ChannelTarget, ConversionContext, ConvertedResponse, Provider, RelayRequest, UpstreamRequest } from '../../provider.ts';
import { claudeChatResponse, claudeRequestFromRelay } from '../claude/claude-chat.ts';
import { claudeNativeFor } from '../claude/claude-native-answer.ts';
import { parseClaudeError } from '../claude/parse-claude-error.ts';
import { geminiChatResponse, geminiRequestFromRelay, generateMethod } from '../gemini/gemini-chat.ts';
import { geminiNativeFor } from '../gemini/gemini-native-answer.ts';
import { parseGeminiError } from '../gemini/parse-gemini-error.ts';
import { parseServiceAccount } from './service-account-token.ts';
import { vertexClaudeModel, vertexModelUrl, vertexRegion } from './vertex-location.ts';
import { createVertexTransport } from './vertex-transport.ts';

/** The Messages API version Vertex expects in the body (it replaces the `anthropic-version` header). */
const vertexAnthropicVersion = 'vertex-2023-10-16';

const isClaude = (model: string): boolean => model.startsWith('claude');

function buildChatRequest(request: RelayRequest, target: ChannelTarget): UpstreamRequest {
  const project = parseServiceAccount(target.key)?.project_id ?? '';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (request.stream) headers['accept'] = 'text/event-stream';
  if (isClaude(request.upstreamModel)) {
    const { body, warnings } = claudeRequestFromRelay(request);
    const { model, ...rest } = body;
    const region = vertexRegion(target.other, model);
    const method = request.stream ? 'streamRawPredict?alt=sse' : 'rawPredict';
    const url = vertexModelUrl({ baseUrl: target.baseUrl, region, project, publisher: 'anthropic', model: vertexClaudeModel(model), method });
    const beta = callerHeadersOf(request.body, 'anthropic')['anthropic-beta'];
    if (beta) headers['anthropic-beta'] = beta;
    return { url, method: 'POST', headers, body: JSON.stringify({ anthropic_version: vertexAnthropicVersion, ...rest }), warnings };
  }
  const { model, body, warnings } = geminiRequestFromRelay(request);
  const url = vertexModelUrl({
    baseUrl: target.baseUrl,
    region: vertexRegion(target.other, model),
    project,
    publisher: 'google',
    model,
    method: generateMethod(request.stream),
  });
  return { url, method: 'POST', headers, body: JSON.stringify(body), warnings };
}

/** Claude models answer in Anthropic's format, every other model in Gemini's. */
const vertexChatResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: (body: unknown, context: ConversionContext) =>
    (isClaude(context.upstreamModel) ? claudeChatResponse : geminiChatResponse).convertResponse(body, context),
  createStreamConverter: (context: ConversionContext) =>
    (isClaude(context.upstreamModel) ? claudeChatResponse : geminiChatResponse).createStreamConverter(context),
};

function parseVertexError(status: number, body: unknown) {
  const anthropicShaped = body !== null && typeof body === 'object' && (body as Record<string, unknown>).type === 'error';
  return anthropicShaped ? parseClaudeError(status, body) : parseGeminiError(status, body);
}

/**
 * Google Vertex AI (channel type 41): Gemini models through the Gemini converters, Claude models
 * through the Claude converters (rawPredict), authenticated with the service account in the key.
 * @see https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude
 */
export const vertexProvider: Provider = {
  id: 'vertex',
  channelTypes: [41],
  transport: createVertexTransport(),
  chat: {
    buildRequest: buildChatRequest,
    response: vertexChatResponse,
    // The model decides the dialect Vertex answers in: a caller of the same dialect gets it as it is.
    nativeAnswer: (dialect, upstreamModel) => (isClaude(upstreamModel) ? claudeNativeFor(dialect) : geminiNativeFor(dialect)),
  },
  parseError: parseVertexError,
};
