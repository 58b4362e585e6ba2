import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { baiduChatResponseSchema } from './baidu-api.ts';
import { mapFinishReason, normalizeBaiduUsage, toOpenAIUsage } from './convert-usage.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * Wenxin Workshop stream frames → OpenAI chunks. Each `data:` frame carries the next piece of
 * `result` and the usage so far; the frame with `is_end: true` is the last, so it carries the
 * finish reason and the final usage. Mid-stream frames say `finish_reason: "normal"`, which is
 * not an end. An error frame (`error_code`) becomes an error chunk.
 * @see https://cloud.baidu.com/doc/WENXINWORKSHOP/s/clntwmv7t
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let usage: NormalizedUsage | undefined;
  let pendingText = '';
  let started = false;

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finishReason);

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      const parsed = baiduChatResponseSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const frame = parsed.data;
      if (frame.error_code)
        return [openAIErrorBody({ message: frame.error_msg ?? 'upstream stream error', type: 'upstream_error', code: String(frame.error_code) })];
      if (frame.id) id = frame.id;
      if (frame.usage) usage = normalizeBaiduUsage(frame.usage);
      const out: OpenAIChatChunk[] = [];
      const delta: OpenAIChunkDelta = {};
      if (!started) {
        started = true;
        delta.role = 'assistant';
      }
      if (frame.result) {
        delta.content = frame.result;
        pendingText += frame.result;
      }
      if (delta.role || delta.content) out.push(chunk(delta));
      if (frame.is_end) {
        const finishing = chunk({}, mapFinishReason(frame));
        if (usage) finishing.usage = toOpenAIUsage(usage);
        out.push(finishing);
      }
      return out;
    },
    usage: () => usage,
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
