import type { OpenAIChatCompletion } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext } from '../../provider.ts';
import { readOpenAIUsage } from '../../providers/openai-compatible/openai-usage.ts';
import { mapFinishReasonToStopReason } from '../../providers/claude/map-stop-reason.ts';
import { messageParts } from '../openai-message-parts.ts';
import { toAnthropicUsage } from './anthropic-usage.ts';

type Json = Record<string, unknown>;

/** An Anthropic message id: the channel's own when it was Claude, otherwise one made from the request id. */
export function messageId(id: unknown, context: ConversionContext): string {
  return typeof id === 'string' && id.startsWith('msg_') ? id : `msg_${context.requestId}`;
}

function parseInput(text: string | undefined): unknown {
  const parsed = safeParseJson(text || '{}');
  return parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : {};
}

/**
 * OpenAI chat completion → Anthropic Messages answer: thinking first (with signatures when the
 * channel was Claude), then text, then tool_use blocks; finish reason and usage translated.
 * @see https://docs.anthropic.com/en/api/messages#response
 */
export function convertMessagesAnswer(completion: unknown, context: ConversionContext): Json {
  const answer = (completion ?? {}) as Partial<OpenAIChatCompletion>;
  const choice = answer.choices?.[0];
  const message = choice?.message;
  const content: Json[] = [];
  const { text, reasoning } = messageParts(message);
  if (message?.thinking_blocks && message.thinking_blocks.length > 0) content.push(...message.thinking_blocks);
  else if (reasoning) content.push({ type: 'thinking', thinking: reasoning, signature: '' });
  if (text) content.push({ type: 'text', text });
  for (const call of message?.tool_calls ?? [])
    content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: parseInput(call.function.arguments) });
  return {
    id: messageId(answer.id, context),
    type: 'message',
    role: 'assistant',
    model: context.model,
    content,
    stop_reason: mapFinishReasonToStopReason(choice?.finish_reason),
    stop_sequence: null,
    usage: toAnthropicUsage(readOpenAIUsage(answer.usage)),
  };
}
