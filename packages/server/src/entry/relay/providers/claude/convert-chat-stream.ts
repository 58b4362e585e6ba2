import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { claudeStreamEventSchema, type ClaudeUsage } from './claude-api.ts';
import { urlCitations } from './claude-citations.ts';
import { billedClaudeUsage } from './claude-native-answer.ts';
import { toOpenAIUsage } from './convert-usage.ts';
import { mapStopReason } from './map-stop-reason.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * Anthropic stream events → OpenAI chat completion chunks, one event at a time.
 *
 * `message_start` carries the input usage, `message_delta` the stop reason and the final output
 * usage (cumulative, and on newer models the input and cache counts too), so the finishing chunk
 * is written there, with usage attached. Tool calls are numbered by their order among tool_use
 * blocks, as OpenAI numbers them, not by Anthropic's content-block index. Only `tool_use` blocks are
 * client tool calls: a server tool's call (`server_tool_use`, `mcp_tool_use`) and its result ran at
 * Anthropic, and their input deltas are dropped rather than handed to the caller to run. A text
 * block's web citations (`citations_delta`) become `url_citation` annotations when the block ends,
 * spanning the text it streamed.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/streaming
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  const usage: ClaudeUsage = {};
  let seenUsage = false;
  let pendingText = '';
  const toolIndexByBlock = new Map<number, number>();
  /** Characters of answer text sent so far: where each text block starts, for its citations' span. */
  let textLength = 0;
  const citedBlocks = new Map<number, { start: number; citations: unknown[] }>();

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finishReason);

  const mergeUsage = (next: ClaudeUsage | null | undefined): void => {
    if (!next) return;
    seenUsage = true;
    for (const field of ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'] as const) {
      const value = next[field];
      if (typeof value === 'number') usage[field] = value;
    }
    if (next.cache_creation) usage.cache_creation = next.cache_creation;
    // The web searches the answer ran and compaction's iterations are billed as for a whole answer.
    if (next.server_tool_use) usage.server_tool_use = next.server_tool_use;
    if (next.iterations !== undefined && next.iterations !== null) usage.iterations = next.iterations;
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
          if (block?.type === 'text') {
            citedBlocks.set(data.index ?? -1, { start: textLength, citations: Array.isArray(block.citations) ? [...block.citations] : [] });
            if (!block.text) return [];
            pendingText += block.text;
            textLength += block.text.length;
            return [chunk({ content: block.text })];
          }
          return [];
        }
        case 'content_block_stop': {
          const cited = citedBlocks.get(data.index ?? -1);
          citedBlocks.delete(data.index ?? -1);
          const annotations = cited ? urlCitations(cited.citations, cited.start, textLength) : [];
          return annotations.length > 0 ? [chunk({ annotations })] : [];
        }
        case 'content_block_delta': {
          const delta = data.delta;
          if (delta?.type === 'text_delta' && delta.text) {
            pendingText += delta.text;
            textLength += delta.text.length;
            return [chunk({ content: delta.text })];
          }
          if (delta?.type === 'citations_delta' && delta.citation) {
            citedBlocks.get(data.index ?? -1)?.citations.push(delta.citation);
            return [];
          }
          if (delta?.type === 'thinking_delta' && delta.thinking) {
            pendingText += delta.thinking;
            return [chunk({ reasoning_content: delta.thinking })];
          }
          if (delta?.type === 'signature_delta' && delta.signature) return [chunk({ thinking_signature: delta.signature })];
          if (delta?.type === 'input_json_delta' && delta.partial_json) {
            const toolIndex = toolIndexByBlock.get(data.index ?? -1);
            // A server tool's input: it ran upstream, the caller has nothing to run.
            if (toolIndex === undefined) return [];
            pendingText += delta.partial_json;
            return [chunk({ tool_calls: [{ index: toolIndex, function: { arguments: delta.partial_json } }] })];
          }
          return [];
        }
        case 'message_delta': {
          mergeUsage(data.usage);
          const finishing = chunk({}, mapStopReason(data.delta?.stop_reason) ?? 'stop');
          if (seenUsage) finishing.usage = toOpenAIUsage(billedClaudeUsage(usage));
          return [finishing];
        }
        case 'error':
          return [openAIErrorBody({ message: data.error?.message ?? 'upstream stream error', type: data.error?.type ?? 'upstream_error' })];
        default:
          // ping, message_stop and event types added later carry nothing to forward.
          return [];
      }
    },
    usage(): NormalizedUsage | undefined {
      return seenUsage ? billedClaudeUsage(usage) : undefined;
    },
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
