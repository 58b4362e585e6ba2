import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { cohereStreamEventSchema } from './cohere-api.ts';
import { mapFinishReason, normalizeCohereUsage, toOpenAIUsage } from './convert-usage.ts';

/**
 * Cohere v1 chat stream events → OpenAI chunks. Each event is one line of Cohere's newline-delimited
 * JSON, handed over as an SSE event by the NDJSON transport. `stream-start` opens the answer,
 * `text-generation` carries text, `stream-end` the finish reason and the usage of the whole answer;
 * search, citation and tool events carry nothing a chat completion shows.
 * @see https://docs.cohere.com/v1/reference/chat-stream
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let usage: NormalizedUsage | undefined;
  let pendingText = '';

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finishReason);

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      const parsed = cohereStreamEventSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const data = parsed.data;
      switch (data.event_type) {
        case 'stream-start':
          if (data.generation_id) id = `chatcmpl-${data.generation_id}`;
          return [chunk({ role: 'assistant', content: '' })];
        case 'text-generation':
          if (!data.text) return [];
          pendingText += data.text;
          return [chunk({ content: data.text })];
        case 'stream-end': {
          usage = normalizeCohereUsage(data.response?.meta) ?? usage;
          const finishing = chunk({}, mapFinishReason(data.finish_reason ?? data.response?.finish_reason));
          if (usage) finishing.usage = toOpenAIUsage(usage);
          return [finishing];
        }
        default:
          return [];
      }
    },
    usage: () => usage,
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
