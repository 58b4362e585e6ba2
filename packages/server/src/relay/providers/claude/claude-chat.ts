import { openAIChatRequestSchema } from '@switchboard/contracts';
import { callerRequestOf } from '../../pipeline/answer-format.ts';
import type { ConvertedResponse, RelayRequest } from '../../provider.ts';
import { claudeRequestSchema } from './claude-api.ts';
import { convertChatRequest, type ClaudeRequestBody, type ConvertedClaudeRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';

/**
 * The parts of Claude chat that every transport shares (Anthropic, Bedrock, Vertex): reading the
 * caller's OpenAI request and converting the answers back.
 */
export function claudeRequestFromRelay(request: RelayRequest): ConvertedClaudeRequest {
  // An Anthropic-format caller's own request goes as it came, with the channel's model.
  const original = claudeRequestSchema.safeParse(callerRequestOf(request.body, 'anthropic'));
  if (original.success) {
    const { stream: _stream, ...rest } = original.data;
    const body = { ...rest, model: request.upstreamModel, ...(request.stream ? { stream: true } : {}) } as unknown as ClaudeRequestBody;
    return { body, warnings: [] };
  }
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw new Error(`the chat request cannot be converted for Claude: ${parsed.error.issues[0]?.message ?? 'invalid body'}`);
  return convertChatRequest(parsed.data, request.upstreamModel);
}

export const claudeChatResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertChatResponse,
  createStreamConverter: createChatStreamConverter,
};
