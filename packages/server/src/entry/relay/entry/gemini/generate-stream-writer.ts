import type { OpenAIChatChunk, OpenAIUsage } from '@switchboard/contracts';
import type { AnswerStreamWriter } from '../../pipeline/answer-format.ts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { mapToGeminiFinishReason } from '../../providers/gemini/map-finish-reason.ts';
import { readThoughtSignature } from '../../providers/gemini/thought-signature.ts';
import { messageParts } from '../openai-message-parts.ts';
import { functionCallPart, toUsageMetadata } from './convert-generate-answer.ts';

type Json = Record<string, unknown>;

/**
 * OpenAI chunks → streamGenerateContent events. Text and thoughts go out as they come; a function
 * call goes out whole once its arguments are complete (Gemini never splits one); the last event,
 * written when the upstream ends, carries the finish reason and the usage metadata.
 * `framing` is `sse` for `?alt=sse` callers, otherwise Google's progressively written JSON array.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
export function createGenerateStreamWriter(context: ConversionContext, framing: 'sse' | 'array'): AnswerStreamWriter {
  let written = 0;
  let finishReason = 'STOP';
  let usage: Partial<OpenAIUsage> | undefined;
  const calls = new Map<number, { name: string; arguments: string; thoughtSignature?: string }>();
  let failed = false;

  const frame = (value: Json): string => {
    const json = JSON.stringify(value);
    written += 1;
    if (framing === 'sse') return `data: ${json}\r\n\r\n`;
    return written === 1 ? `[${json}` : `,\r\n${json}`;
  };
  const event = (parts: Json[], extra: Json = {}): string =>
    frame({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
      modelVersion: context.model,
      responseId: context.requestId,
      ...(extra.finishReason ? { usageMetadata: toUsageMetadata(usage) } : {}),
    });

  return {
    push(value: unknown): string {
      if (failed || value === null || typeof value !== 'object') return '';
      const object = value as Json;
      if (object.error) {
        failed = true;
        const error = object.error as { message?: unknown };
        const body = { error: { code: 500, message: typeof error.message === 'string' ? error.message : 'upstream error', status: 'INTERNAL' } };
        return framing === 'sse' ? `data: ${JSON.stringify(body)}\r\n\r\n` : `${written === 0 ? '[' : ',\r\n'}${JSON.stringify(body)}]`;
      }
      const chunk = object as Partial<OpenAIChatChunk>;
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) return '';
      const delta = choice.delta ?? {};
      for (const call of delta.tool_calls ?? []) {
        const pending = calls.get(call.index) ?? { name: '', arguments: '' };
        if (call.function.name) pending.name = call.function.name;
        pending.arguments += call.function.arguments ?? '';
        pending.thoughtSignature ??= readThoughtSignature(call);
        calls.set(call.index, pending);
      }
      if (choice.finish_reason) finishReason = mapToGeminiFinishReason(choice.finish_reason);
      const parts: Json[] = [];
      const { text, reasoning } = messageParts(delta);
      if (reasoning) parts.push({ text: reasoning, thought: true });
      if (text) parts.push({ text });
      return parts.length > 0 ? event(parts) : '';
    },
    end(billed: NormalizedUsage | undefined): string {
      if (failed) return '';
      usage ??= billed
        ? { prompt_tokens: billed.promptTokens, completion_tokens: billed.completionTokens, prompt_tokens_details: { cached_tokens: billed.cachedTokens ?? 0 } }
        : undefined;
      const parts = [...calls.values()].map((call) => functionCallPart(call.name, call.arguments, call.thoughtSignature));
      const last = event(parts, { finishReason });
      return framing === 'sse' ? last : `${last}]`;
    },
  };
}
