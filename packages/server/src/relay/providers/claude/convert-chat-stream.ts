import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { claudeStreamEventSchema, type ClaudeUsage } from './claude-api.ts';
import { normalizeClaudeUsage, toOpenAIUsage } from './convert-usage.ts';
import { mapStopReason } from './map-stop-reason.ts';

/**
 * Anthropic stream events → OpenAI chat completion chunks, one event at a time.
 *
 * `message_start` carries the input usage, `message_delta` the stop reason and the final output
 * usage (cumulative, and on newer models the input and cache counts too), so the finishing chunk
 * is written there, with usage attached. Tool calls are numbered by their order among tool_use
 * blocks, as OpenAI numbers them, not by Anthropic's content-block index.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  const usage: ClaudeUsage = {};
  let seenUsage = false;
  let pendingText = '';
  const toolIndexByBlock = new Map<number, number>();

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finishReason);

  const mergeUsage = (next: ClaudeUsage | null | undefined): void => {
    if (!next) return;
    seenUsage = true;
    for (const field of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const value = next[field];
      if (typeof value === 'number') usage[field] = value;
    }
    if (next.cache_creation) usage.cache_creation = next.cache_creation;
  };

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      const parsed = claudeStreamEventSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const data = parsed.data;
      switch (data.type) {
        case 'message_start':
          if (data.message?.id) id = data.message.id;
          mergeUsage(data.message?.usage);
          return [chunk({ role: 'assistant', content: '' })];
        case 'content_block_start': {
          const block = data.content_block;
          if (block?.type === 'tool_use') {
            const toolIndex = toolIndexByBlock.size;
            toolIndexByBlock.set(data.index ?? toolIndex, toolIndex);
            pendingText += block.name ?? '';
            return [chunk({ tool_calls: [{ index: toolIndex, id: block.id ?? '', type: 'function', function: { name: block.name ?? '', arguments: '' } }] })];
          }
          if (block?.type === 'text' && block.text) {
            pendingText += block.text;
            return [chunk({ content: block.text })];
          }
          return [];
        }
        case 'content_block_delta': {
          const delta = data.delta;
          if (delta?.type === 'text_delta' && delta.text) {
            pendingText += delta.text;
            return [chunk({ content: delta.text })];
          }
          if (delta?.type === 'thinking_delta' && delta.thinking) {
            pendingText += delta.thinking;
            return [chunk({ reasoning_content: delta.thinking })];
          }
          if (delta?.type === 'signature_delta' && delta.signature) return [chunk({ thinking_signature: delta.signature })];
          if (delta?.type === 'input_json_delta' && delta.partial_json) {
            const toolIndex = toolIndexByBlock.get(data.index ?? -1) ?? 0;
            pendingText += delta.partial_json;
            return [chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] })];
          }
          return [];
        }
        case 'message_delta': {
          mergeUsage(data.usage);
          const finishing = chunk({}, mapStopReason(data.delta?.stop_reason) ?? 'stop');
          if (seenUsage) finishing.usage = toOpenAIUsage(normalizeClaudeUsage(usage));
          return [finishing];
        }
        case 'error':
          return [{ error: { message: data.error?.message ?? 'upstream stream error', type: data.error?.type ?? 'upstream_error' } }];
        default:
          // ping, content_block_stop, message_stop and event types added later carry nothing to forward.
          return [];
      }
    },
    usage(): NormalizedUsage | undefined {
      return seenUsage ? normalizeClaudeUsage(usage) : undefined;
    },
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
