import { type OpenAIChatChunk, type OpenAIChunkDelta, chatChunk } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext, NormalizedUsage, SseEvent, StreamConverter } from '../../provider.ts';
import { toOpenAIUsage } from '../claude/convert-usage.ts';
import { withReasoning, readParts } from './convert-chat-response.ts';
import { normalizeGeminiUsage } from './convert-usage.ts';
import { geminiErrorSchema, geminiResponseSchema, type GeminiUsage } from './gemini-api.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { openAIErrorBody } from '../../../../core/http/openai-error-body.ts';

/**
 * streamGenerateContent (`alt=sse`) events → OpenAI chunks. Every event is a partial
 * GenerateContentResponse; function calls arrive whole (never split), usage metadata is repeated
 * and complete on the event that carries the finish reason, where the finishing chunk gets it.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function createChatStreamConverter(context: ConversionContext): StreamConverter {
  let id = `chatcmpl-${context.requestId}`;
  let started = false;
  let usage: GeminiUsage | undefined;
  let pendingText = '';
  let toolCount = 0;
  let callIds = 0;
  const idFor = () => `call_${context.requestId}_${callIds++}`;

  const chunk = (delta: OpenAIChunkDelta, index = 0): OpenAIChatChunk => chatChunk(id, context, delta, null, index);

  return {
    push(event: SseEvent): unknown[] {
      const json = safeParseJson(event.data);
      if (!json.ok) return [];
      // A failure after the stream began arrives as an event with Google's error body; passed on as
      // an error object, it ends the caller's answer as failed instead of looking complete.
      if (json.value !== null && typeof json.value === 'object' && 'error' in json.value) {
        const failure = geminiErrorSchema.safeParse(json.value).data?.error;
        return [openAIErrorBody({ message: failure?.message ?? 'upstream stream error', type: failure?.status ?? 'upstream_error' })];
      }
      const parsed = geminiResponseSchema.safeParse(json.value);
      if (!parsed.success) return [];
      const data = parsed.data;
      if (data.responseId && !started) id = `chatcmpl-${data.responseId}`;
      if (data.usageMetadata) usage = data.usageMetadata;
      const out: OpenAIChatChunk[] = [];
      if (!started) {
        started = true;
        out.push(chunk({ role: 'assistant', content: '' }));
      }
      for (const candidate of data.candidates ?? []) {
        const index = candidate.index ?? 0;
        const { text, reasoning, toolCalls } = readParts(candidate.content?.parts ?? [], idFor);
        if (reasoning) out.push(chunk({ reasoning_content: reasoning }, index));
        if (text) out.push(chunk({ content: text }, index));
        for (const call of toolCalls) {
          // Whole calls, so the signature goes with the one delta that carries the call.
          out.push(chunk({ tool_calls: [{ index: toolCount++, ...call }] }, index));
        }
        pendingText += reasoning + text + toolCalls.map((call) => call.function.name + call.function.arguments).join('');
        if (candidate.finishReason) {
          const finishing = chunk({}, index);
          const first = finishing.choices[0];
          if (first) first.finish_reason = mapFinishReason(candidate.finishReason, toolCount > 0);
          if (usage) finishing.usage = withReasoning(toOpenAIUsage(normalizeGeminiUsage(usage)), usage.thoughtsTokenCount);
          out.push(finishing);
        }
      }
      if ((data.candidates ?? []).length === 0 && data.promptFeedback?.blockReason) {
        const blocked = chunk({});
        const first = blocked.choices[0];
        if (first) first.finish_reason = 'content_filter';
        if (usage) blocked.usage = toOpenAIUsage(normalizeGeminiUsage(usage));
        out.push(blocked);
      }
      return out;
    },
    usage(): NormalizedUsage | undefined {
      return usage ? normalizeGeminiUsage(usage) : undefined;
    },
    takeText(): string {
      const text = pendingText;
      pendingText = '';
      return text;
    },
  };
}
