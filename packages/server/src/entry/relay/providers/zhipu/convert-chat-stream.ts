import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { normalizeZhipuUsage, toOpenAIUsage } from './convert-usage.ts';
import { zhipuStreamEventSchema, zhipuStreamMetaSchema, type ZhipuStreamEvent } from './zhipu-api.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

function readEvent(event: SseEvent): ZhipuStreamEvent | undefined {
  const json = safeParseJson(event.data);
  if (!json.ok) return undefined;
  const parsed = zhipuStreamEventSchema.safeParse(json.value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * sse-invoke events (re-framed by the transport) → OpenAI chat completion chunks, one at a time.
 * `add` carries new text (the request asks for incremental events), `finish` ends the answer with
 * the usage in its meta, `error` and `interrupted` end it with the vendor's message.
 * @see https://open.bigmodel.cn/dev/api#sse_invoke
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let started = false;
  let usage: NormalizedUsage | undefined;
  let pendingText = '';

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finishReason);

  /** The first chunk names the role, as OpenAI's do. */
  const textChunk = (text: string): OpenAIChatChunk => {
    pendingText += text;
    const delta: OpenAIChunkDelta = started ? { content: text } : { role: 'assistant', content: text };
    started = true;
    return chunk(delta);
  };

  return {
    push(event: SseEvent): unknown[] {
      const data = readEvent(event);
      if (!data) return [];
      if (!started && data.id) id = `chatcmpl-${data.id}`;
      const text = data.data ?? '';
      switch (event.event) {
        case 'finish': {
          const out: unknown[] = text ? [textChunk(text)] : [];
          const meta = data.meta ? safeParseJson(data.meta) : undefined;
          const parsedMeta = meta?.ok ? zhipuStreamMetaSchema.safeParse(meta.value) : undefined;
          if (parsedMeta?.success && parsedMeta.data.usage) usage = normalizeZhipuUsage(parsedMeta.data.usage);
          const finishing = chunk(started ? {} : { role: 'assistant', content: '' }, 'stop');
          if (usage) finishing.usage = toOpenAIUsage(usage);
          out.push(finishing);
          return out;
        }
        case 'error':
        case 'interrupted':
          return [
            openAIErrorBody({
              message: text || `the stream was ${event.event === 'error' ? 'ended by an error' : 'interrupted'}`,
              type: `zhipu_${event.event}`,
            }),
          ];
        default:
          return text ? [textChunk(text)] : [];
      }
    },
    usage(): NormalizedUsage | undefined {
      return usage;
    },
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
