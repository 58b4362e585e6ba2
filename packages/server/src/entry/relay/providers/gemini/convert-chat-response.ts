import type { OpenAIAssistantMessage, OpenAIChatCompletion } from '@switchboard/contracts';
import type { ConversionContext, NormalizedUsage } from '../../provider.ts';
import { toOpenAIUsage } from '../claude/convert-usage.ts';
import { geminiResponseSchema, type GeminiPart } from './gemini-api.ts';
import { normalizeGeminiUsage } from './convert-usage.ts';
import { mapFinishReason } from './map-finish-reason.ts';
import { thoughtSignatureField, type GoogleExtraContent } from './thought-signature.ts';

/** An OpenAI tool call that may carry the Gemini thought signature of its `functionCall` part. */
export type GeminiToolCall = NonNullable<OpenAIAssistantMessage['tool_calls']>[number] & { extra_content?: GoogleExtraContent };

/** Parts of one candidate → text, thoughts and tool calls (ids made up when Gemini sends none). */
export function readParts(parts: readonly GeminiPart[], callId: () => string): { text: string; reasoning: string; toolCalls: GeminiToolCall[] } {
  let text = '';
  let reasoning = '';
  const toolCalls: GeminiToolCall[] = [];
  for (const part of parts) {
    if (part.functionCall) {
      const call = {
        id: part.functionCall.id ?? callId(),
        type: 'function' as const,
        function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) },
      };
      toolCalls.push({ ...call, ...thoughtSignatureField(part.thoughtSignature) });
    } else if (typeof part.text === 'string') {
      if (part.thought) reasoning += part.text;
      else text += part.text;
    }
  }
  return { text, reasoning, toolCalls };
}

/**
 * A generateContent answer → an OpenAI chat completion, one choice per candidate. A prompt blocked
 * before any candidate becomes an empty answer finished by `content_filter`.
 */
export function convertChatResponse(body: unknown, context: ConversionContext): { body: OpenAIChatCompletion; usage?: NormalizedUsage } {
  const parsed = geminiResponseSchema.safeParse(body);
  const response = parsed.success ? parsed.data : {};
  let calls = 0;
  const callId = () => `call_${context.requestId}_${calls++}`;
  const choices: OpenAIChatCompletion['choices'] = (response.candidates ?? []).map((candidate, position) => {
    const { text, reasoning, toolCalls } = readParts(candidate.content?.parts ?? [], callId);
    const message: OpenAIAssistantMessage = { role: 'assistant', content: text || (toolCalls.length > 0 ? null : '') };
    if (reasoning) message.reasoning_content = reasoning;
    if (toolCalls.length > 0) message.tool_calls = toolCalls;
    return { index: candidate.index ?? position, message, finish_reason: mapFinishReason(candidate.finishReason ?? 'STOP', toolCalls.length > 0) };
  });
  if (choices.length === 0)
    choices.push({ index: 0, message: { role: 'assistant', content: '' }, finish_reason: response.promptFeedback?.blockReason ? 'content_filter' : 'stop' });
  const usage = response.usageMetadata ? normalizeGeminiUsage(response.usageMetadata) : undefined;
  const completion: OpenAIChatCompletion = {
    id: response.responseId ? `chatcmpl-${response.responseId}` : `chatcmpl-${context.requestId}`,
    object: 'chat.completion',
    created: context.createdAt,
    model: context.model,
    choices,
  };
  if (usage) completion.usage = withReasoning(toOpenAIUsage(usage), response.usageMetadata?.thoughtsTokenCount);
  return usage ? { body: completion, usage } : { body: completion };
}

/** OpenAI reports thinking tokens as a detail of completion tokens. */
export function withReasoning<T extends { completion_tokens_details?: { reasoning_tokens: number } }>(usage: T, thoughts: number | null | undefined): T {
  if (thoughts && thoughts > 0) usage.completion_tokens_details = { reasoning_tokens: thoughts };
  return usage;
}
