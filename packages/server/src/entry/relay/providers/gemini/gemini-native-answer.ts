import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { NativeAnswer, NativeStreamUsage, NormalizedUsage } from '../../provider.ts';
import { geminiUsageSchema } from './gemini-api.ts';
import { normalizeGeminiUsage } from './convert-usage.ts';

/**
 * Gemini answers for Gemini-format callers: forwarded as Google wrote them (thought signatures on
 * every part, grounding, safety ratings, parts added later). Every stream event repeats the usage so
 * far (`usageMetadata`), so the stream keeps the last such event's data unparsed and parses it once,
 * when usage is asked for. `modelVersion` is Google's own version name and stays as sent.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function usageOf(body: unknown): NormalizedUsage | undefined {
  if (!isObject(body)) return undefined;
  const parsed = geminiUsageSchema.safeParse(body.usageMetadata);
  return parsed.success ? normalizeGeminiUsage(parsed.data) : undefined;
}

function createStreamUsage(): NativeStreamUsage {
  let lastData: string | undefined;
  let read: { data: string; usage: NormalizedUsage | undefined } | undefined;
  return {
    push(data) {
      if (data.includes('"usageMetadata"')) lastData = data;
    },
    get seen() {
      return lastData !== undefined;
    },
    usage() {
      if (lastData === undefined) return undefined;
      if (read?.data !== lastData) {
        const parsed = safeParseJson(lastData);
        read = { data: lastData, usage: parsed.ok ? usageOf(parsed.value) : undefined };
      }
      return read.usage;
    },
  };
}

function textOf(value: unknown): string {
  if (!isObject(value) || !Array.isArray(value.candidates)) return '';
  let text = '';
  for (const candidate of value.candidates) {
    const parts = isObject(candidate) && isObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
    for (const part of parts) {
      if (!isObject(part)) continue;
      if (typeof part.text === 'string') text += part.text;
      if (part.functionCall !== undefined) text += JSON.stringify(part.functionCall);
    }
  }
  return text;
}

export const geminiNativeAnswer: NativeAnswer = {
  dialect: 'gemini',
  usageOf,
  textOf,
  createStreamUsage,
  withCallerModel: () => undefined,
  namesModel: () => false,
  streamError: (reason, message) => {
    const error = reason === 'sensitive' ? { code: 400, message, status: 'INVALID_ARGUMENT' } : { code: 500, message, status: 'INTERNAL' };
    return { data: JSON.stringify({ error }) };
  },
};

/** For `EndpointCapability.nativeAnswer` of the Gemini transports (AI Studio, Vertex). */
export function geminiNativeFor(dialect: string): NativeAnswer | undefined {
  return dialect === 'gemini' ? geminiNativeAnswer : undefined;
}
