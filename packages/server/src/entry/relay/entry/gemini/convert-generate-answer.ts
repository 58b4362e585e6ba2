import type { OpenAIChatCompletion, OpenAIUsage } from '@switchboard/contracts';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { ConversionContext } from '../../provider.ts';
import { mapToGeminiFinishReason } from '../../providers/gemini/map-finish-reason.ts';
import { readThoughtSignature } from '../../providers/gemini/thought-signature.ts';
import { messageParts } from '../openai-message-parts.ts';

type Json = Record<string, unknown>;

/**
 * OpenAI usage → Gemini usageMetadata. Gemini counts thinking apart from the candidates, OpenAI
 * inside completion_tokens, so reasoning tokens move from one to the other.
 */
export function toUsageMetadata(usage: Partial<OpenAIUsage> | undefined): Json {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  const thoughts = usage?.completion_tokens_details?.reasoning_tokens ?? 0;
  const metadata: Json = { promptTokenCount: prompt, candidatesTokenCount: Math.max(0, completion - thoughts), totalTokenCount: prompt + completion };
  const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
  if (cached > 0) metadata.cachedContentTokenCount = cached;
  if (thoughts > 0) metadata.thoughtsTokenCount = thoughts;
  return metadata;
}

/** A `functionCall` part, with the thought signature a Gemini channel gave the call (the caller must send it back). */
export function functionCallPart(name: string, argumentsText: string, thoughtSignature?: string): Json {
  const parsed = safeParseJson(argumentsText || '{}');
  const part: Json = { functionCall: { name, args: parsed.ok && parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : {} } };
  if (thoughtSignature) part.thoughtSignature = thoughtSignature;
  return part;
}

/**
 * OpenAI chat completion → Gemini GenerateContentResponse, one candidate per choice.
 * @see https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse
 */
export function convertGenerateAnswer(completion: unknown, context: ConversionContext): Json {
  const answer = (completion ?? {}) as Partial<OpenAIChatCompletion>;
  const candidates = (answer.choices ?? []).map((choice) => {
    const parts: Json[] = [];
    const { text, reasoning } = messageParts(choice.message);
    if (reasoning) parts.push({ text: reasoning, thought: true });
    if (text) parts.push({ text });
    for (const call of choice.message.tool_calls ?? []) parts.push(functionCallPart(call.function.name, call.function.arguments, readThoughtSignature(call)));
    return { content: { role: 'model', parts }, finishReason: mapToGeminiFinishReason(choice.finish_reason), index: choice.index };
  });
  return { candidates, usageMetadata: toUsageMetadata(answer.usage), modelVersion: context.model, responseId: context.requestId };
}
