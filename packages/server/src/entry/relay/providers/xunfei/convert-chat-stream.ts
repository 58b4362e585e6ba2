import { type OpenAIChatChunk, type OpenAIChunkDelta, type OpenAIFinishReason, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { toOpenAIUsage } from '../claude/convert-usage.ts';
import { sparkToolCallId } from './convert-chat-response.ts';
import { normalizeSparkUsage } from './convert-usage.ts';
import { isLastFrame, sparkFrameSchema } from './spark-api.ts';
import { classifySparkCode } from './spark-error-codes.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * Spark answer frames (each handed over by the transport as one server-sent event) → OpenAI chat
 * completion chunks. Every frame carries a piece of text; the last one (status 2) also carries the
 * usage, so the finishing chunk is written there, with usage attached. An error frame in the middle
 * of an answer (an output refused by the audit, 10014) becomes OpenAI's in-stream error object.
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let sid = context.requestId;
  let started = false;
  let toolCalls = 0;
  let usage: NormalizedUsage | undefined;
  let pendingText = '';

  const chunk = (delta: OpenAIChunkDelta, finishReason: OpenAIFinishReason | null = null): OpenAIChatChunk =>
    chatChunk(`chatcmpl-${sid}`, context, delta, finishReason);

  /** The first chunk out says who speaks. */
  const opening = (): OpenAIChunkDelta => (started ? {} : { role: 'assistant' });

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      const parsed = sparkFrameSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const frame = parsed.data;
      const code = frame.header?.code ?? 0;
      if (code !== 0) {
        const message = frame.header?.message || `iFlytek Spark error ${code}`;
        return [openAIErrorBody({ message, type: classifySparkCode(code).type, code: String(code) })];
      }
      if (!started && frame.header?.sid) sid = frame.header.sid;
      const out: OpenAIChatChunk[] = [];
      for (const item of frame.payload?.choices?.text ?? []) {
        if (item.content) {
          pendingText += item.content;
          out.push(chunk({ ...opening(), content: item.content }));
          started = true;
        }
        const call = item.function_call;
        if (call?.name) {
          pendingText += call.name + (call.arguments ?? '');
          const index = toolCalls++;
          const toolCall = {
            index,
            id: sparkToolCallId(sid, index),
            type: 'function' as const,
            function: { name: call.name, arguments: call.arguments ?? '{}' },
          };
          out.push(chunk({ ...opening(), tool_calls: [toolCall] }));
          started = true;
        }
      }
      if (!isLastFrame(frame)) return out;
      const reported = frame.payload?.usage?.text;
      if (reported) usage = normalizeSparkUsage(reported);
      const finishing = chunk(opening(), toolCalls > 0 ? 'tool_calls' : 'stop');
      if (usage) finishing.usage = toOpenAIUsage(usage);
      started = true;
      out.push(finishing);
      return out;
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
