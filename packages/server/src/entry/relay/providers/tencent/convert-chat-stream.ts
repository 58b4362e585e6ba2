import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { tencentChatAnswerSchema } from './tencent-api.ts';
import { mapFinishReason, normalizeTencentUsage, toOpenAIUsage } from './convert-usage.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * Hunyuan stream frames (`data: {...}`, no wrapper, no `[DONE]`) → OpenAI chunks. Every frame
 * carries the usage so far; the frame with a non-empty `FinishReason` is the last, so the usage is
 * attached there. Tool calls arrive as deltas to merge by `Id`; each new id gets the next OpenAI
 * index. `ErrorMsg` (a failure mid-stream) becomes an error chunk.
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let usage: NormalizedUsage | undefined;
  let pendingText = '';
  let started = false;
  const toolIndexById = new Map<string, number>();

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk => chatChunk(id, context, delta, finishReason);

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      const parsed = tencentChatAnswerSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const frame = parsed.data;
      if (frame.ErrorMsg?.Msg) return [openAIErrorBody({ message: frame.ErrorMsg.Msg, type: 'upstream_error', code: String(frame.ErrorMsg.Code ?? '') })];
      if (frame.Id) id = frame.Id;
      if (frame.Usage) usage = normalizeTencentUsage(frame.Usage);
      const choice = frame.Choices?.[0];
      const source = choice?.Delta ?? {};
      const delta: OpenAIChunkDelta = {};
      if (!started) {
        started = true;
        delta.role = 'assistant';
      }
      if (source.ReasoningContent) {
        delta.reasoning_content = source.ReasoningContent;
        pendingText += source.ReasoningContent;
      }
      if (source.Content) {
        delta.content = source.Content;
        pendingText += source.Content;
      }
      const calls = (source.ToolCalls ?? []).map((call) => {
        const callId = call.Id ?? '';
        const known = toolIndexById.get(callId);
        const index = known ?? toolIndexById.size;
        if (known === undefined) toolIndexById.set(callId, index);
        const name = call.Function?.Name ?? '';
        const argumentsText = call.Function?.Arguments ?? '';
        pendingText += name + argumentsText;
        return known === undefined
          ? { index, id: callId, type: 'function' as const, function: { name, arguments: argumentsText } }
          : { index, function: { arguments: argumentsText } };
      });
      if (calls.length > 0) delta.tool_calls = calls;
      const out: OpenAIChatChunk[] = [];
      if (Object.keys(delta).length > 0) out.push(chunk(delta));
      const finish = mapFinishReason(choice?.FinishReason);
      if (finish) {
        const finishing = chunk({}, finish);
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
