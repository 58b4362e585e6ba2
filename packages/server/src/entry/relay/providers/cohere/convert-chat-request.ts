import type { OpenAIChatRequest, OpenAIMessage } from '@switchboard/contracts';
import type { CohereChatRequest, CohereChatTurn } from './cohere-api.ts';

export interface ConvertedCohereRequest {
  body: CohereChatRequest;
  warnings: string[];
}

/** The text of an OpenAI message content; other parts (images, audio) are counted as dropped. */
export function messageText(content: OpenAIMessage['content']): { text: string; dropped: number } {
  if (content === undefined || content === null) return { text: '', dropped: 0 };
  if (typeof content === 'string') return { text: content, dropped: 0 };
  let text = '';
  let dropped = 0;
  for (const part of content) {
    if (part.type === 'text' && typeof part.text === 'string') text += text ? `\n${part.text}` : part.text;
    else dropped += 1;
  }
  return { text, dropped };
}

function historyRole(role: string): CohereChatTurn['role'] {
  if (role === 'assistant') return 'CHATBOT';
  if (role === 'system' || role === 'developer') return 'SYSTEM';
  return 'USER';
}

/**
 * OpenAI chat request → Cohere v1 chat request: the last user message is `message`, the turns before
 * it are `chat_history`, system prompts the `preamble`. (new-api keeps only the last user message and
 * drops the earlier ones; here every turn reaches Cohere.) Text only: v1 chat takes no images.
 * @see https://docs.cohere.com/v1/reference/chat
 */
export function convertChatRequest(request: OpenAIChatRequest, upstreamModel: string): ConvertedCohereRequest {
  const warnings: string[] = [];
  const preamble: string[] = [];
  const turns: CohereChatTurn[] = [];
  let droppedParts = 0;
  for (const message of request.messages) {
    const { text, dropped } = messageText(message.content);
    droppedParts += dropped;
    if (message.role === 'system' || message.role === 'developer') {
      if (text) preamble.push(text);
      continue;
    }
    if (message.role === 'tool' || message.role === 'function') {
      warnings.push('tool results ignored: Cohere v1 chat is relayed as text only');
      continue;
    }
    if (text) turns.push({ role: historyRole(message.role), message: text });
  }
  const lastUser = turns.findLastIndex((turn) => turn.role === 'USER');
  const message = lastUser >= 0 ? (turns[lastUser]?.message ?? '') : '';
  const history = lastUser >= 0 ? [...turns.slice(0, lastUser), ...turns.slice(lastUser + 1)] : turns;

  const body: CohereChatRequest = { model: upstreamModel, message };
  if (history.length > 0) body.chat_history = history;
  if (preamble.length > 0) body.preamble = preamble.join('\n');
  if (request.stream) body.stream = true;
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  if (typeof maxTokens === 'number') body.max_tokens = maxTokens;
  if (typeof request.temperature === 'number') body.temperature = request.temperature;
  if (typeof request.top_p === 'number') body.p = request.top_p;
  if (typeof request.top_k === 'number') body.k = request.top_k;
  if (typeof request.seed === 'number') body.seed = request.seed;
  if (typeof request.frequency_penalty === 'number') body.frequency_penalty = request.frequency_penalty;
  if (typeof request.presence_penalty === 'number') body.presence_penalty = request.presence_penalty;
  if (request.stop !== undefined && request.stop !== null) body.stop_sequences = typeof request.stop === 'string' ? [request.stop] : request.stop;
  if (request.response_format?.type === 'json_object') body.response_format = { type: 'json_object' };
  else if (request.response_format?.type === 'json_schema') body.response_format = { type: 'json_object', schema: request.response_format.json_schema?.schema };

  if (droppedParts > 0) warnings.push(`${droppedParts} non-text content part(s) dropped: Cohere v1 chat takes text only`);
  if (request.tools && request.tools.length > 0) warnings.push('tools ignored: Cohere v1 chat is relayed as text only');
  if (typeof request.n === 'number' && request.n > 1) warnings.push('n above 1 ignored: Cohere answers one choice');
  return { body, warnings };
}
