import { openAIChatRequestSchema } from '@switchboard/contracts';
import { callerRequestOf } from '../../pipeline/answer-format.ts';
import { RequestNotConvertible, type ConvertedResponse, type RelayRequest } from '../../provider.ts';
import { claudeRequestSchema, type ClaudeRequest } from './claude-api.ts';
import { convertChatRequest, type ClaudeRequestBody, type ConvertedClaudeRequest } from './convert-chat-request.ts';
import { convertChatResponse } from './convert-chat-response.ts';
import { createChatStreamConverter } from './convert-chat-stream.ts';
import { reconcileSampling } from './sampling-parameters.ts';
import { splitThinkingSuffix, suffixThinkingBudget } from './thinking-suffix.ts';

/**
 * The parts of Claude chat that every transport shares (Anthropic, Bedrock, Vertex): reading the
 * caller's OpenAI request and converting the answers back.
 */
export function claudeRequestFromRelay(request: RelayRequest): ConvertedClaudeRequest {
  // An Anthropic-format caller's own request goes as it came, with the channel's model.
  const original = claudeRequestSchema.safeParse(callerRequestOf(request.body, 'anthropic'));
  if (original.success) return forwardedRequest(original.data, request);
  const parsed = openAIChatRequestSchema.safeParse({ ...request.body, model: request.upstreamModel });
  if (!parsed.success) throw RequestNotConvertible.fromIssue('Claude', parsed.error.issues[0]);
  return convertChatRequest(parsed.data, request.upstreamModel);
}

/**
 * The caller's Messages request with the channel's model. A `-thinking` suffix (from the channel's
 * model mapping) never reaches Anthropic: it turns thinking on, as it does for OpenAI callers,
 * unless the caller configured thinking already.
 */
function forwardedRequest(original: ClaudeRequest, request: RelayRequest): ConvertedClaudeRequest {
  const { stream: _stream, ...rest } = original;
  const { model, thinking } = splitThinkingSuffix(request.upstreamModel);
  const body = { ...rest, model, ...(request.stream ? { stream: true } : {}) };
  const warnings: string[] = [];
  if (thinking && !body.thinking) {
    const budget = suffixThinkingBudget(body.max_tokens);
    if (budget < body.max_tokens) {
      body.thinking = { type: 'enabled', budget_tokens: budget };
      reconcileSampling(body, warnings);
    } else {
      warnings.push('thinking skipped: max_tokens leaves no room for a thinking budget');
    }
  }
  return { body: body as unknown as ClaudeRequestBody, warnings };
}

export const claudeChatResponse: ConvertedResponse = {
  kind: 'convert',
  convertResponse: convertChatResponse,
  createStreamConverter: createChatStreamConverter,
};
