import type { OpenAIChatChunk } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { readOpenAIUsage } from '../../providers/openai-compatible/openai-usage.ts';
import { mapFinishReasonToStopReason } from '../../providers/claude/map-stop-reason.ts';
import type { AnswerStreamWriter, StreamKnowledge } from '../../pipeline/answer-format.ts';
import { messageParts } from '../openai-message-parts.ts';
import { toAnthropicUsage } from './anthropic-usage.ts';
import { messageId } from './convert-messages-answer.ts';

type Block = { kind: 'thinking' | 'text' } | { kind: 'tool'; toolIndex: number };

const event = (type: string, data: Record<string, unknown>): string => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/**
 * OpenAI chunks → Anthropic stream events: message_start on the first chunk, one content block
 * per run of thinking, text or one tool call, and message_delta (stop reason, usage) plus
 * message_stop when the upstream ends, because OpenAI sends usage after the finish reason.
 * message_start announces the input tokens (LangChain and others take them from there, not from
 * message_delta): the upstream's count when its first frame had one, else the relay's estimate.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming#event-types
 */
export function createMessagesStreamWriter(context: ConversionContext, known: StreamKnowledge): AnswerStreamWriter {
  let started = false;
  let blockIndex = -1;
  let open: Block | undefined;
  let stopReason = 'end_turn';
  let reported: NormalizedUsage | undefined;
  let failed = false;

  const start = (id: unknown): string => {
    if (started) return '';
    started = true;
    const message = {
      id: messageId(id, context),
      type: 'message',
      role: 'assistant',
      model: context.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: toAnthropicUsage(known.usageSoFar()),
    };
    return event('message_start', { message });
  };
  const close = (): string => {
    if (!open) return '';
    open = undefined;
    return event('content_block_stop', { index: blockIndex });
  };
  const openBlock = (block: Block, contentBlock: Record<string, unknown>): string => {
    const out = close();
    open = block;
    blockIndex += 1;
    return out + event('content_block_start', { index: blockIndex, content_block: contentBlock });
  };

  return {
    push(value: unknown): string {
      if (failed || value === null || typeof value !== 'object') return '';
      const object = value as Record<string, unknown>;
      if (object.error) {
        failed = true;
        const error = object.error as { message?: unknown; type?: unknown };
        return (
          start(undefined) +
          event('error', {
            error: {
              type: typeof error.type === 'string' ? error.type : 'api_error',
              message: typeof error.message === 'string' ? error.message : 'upstream error',
            },
          })
        );
      }
      const chunk = object as Partial<OpenAIChatChunk>;
      let out = start(chunk.id);
      const usage = readOpenAIUsage(chunk.usage);
      if (usage && (usage.promptTokens > 0 || usage.completionTokens > 0)) reported = usage;
      const choice = chunk.choices?.[0];
      if (!choice) return out;
      const delta = choice.delta ?? {};
      const { text, reasoning } = messageParts(delta);
      if (reasoning) {
        if (open?.kind !== 'thinking') out += openBlock({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
        out += event('content_block_delta', { index: blockIndex, delta: { type: 'thinking_delta', thinking: reasoning } });
      }
      if (delta.thinking_signature && open?.kind === 'thinking')
        out += event('content_block_delta', { index: blockIndex, delta: { type: 'signature_delta', signature: delta.thinking_signature } });
      if (text) {
        if (open?.kind !== 'text') out += openBlock({ kind: 'text' }, { type: 'text', text: '' });
        out += event('content_block_delta', { index: blockIndex, delta: { type: 'text_delta', text } });
      }
      for (const call of delta.tool_calls ?? []) {
        if (open?.kind !== 'tool' || open.toolIndex !== call.index) {
          out += openBlock(
            { kind: 'tool', toolIndex: call.index },
            { type: 'tool_use', id: call.id ?? `toolu_${context.requestId}_${call.index}`, name: call.function.name ?? '', input: {} },
          );
        }
        if (call.function.arguments)
          out += event('content_block_delta', { index: blockIndex, delta: { type: 'input_json_delta', partial_json: call.function.arguments } });
      }
      if (choice.finish_reason) stopReason = mapFinishReasonToStopReason(choice.finish_reason);
      return out;
    },
    end(usage: NormalizedUsage | undefined): string {
      if (failed) return '';
      return `${start(undefined)}${close()}${event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: toAnthropicUsage(reported ?? usage) })}${event('message_stop', {})}`;
    },
  };
}
