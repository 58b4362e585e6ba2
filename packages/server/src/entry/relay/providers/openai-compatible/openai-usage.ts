import type { NormalizedUsage } from '../../provider.ts';

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const asCount = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0);

/**
 * Reads OpenAI usage in any of its shapes: Chat/Completions/Embeddings (`prompt_tokens`,
 * `completion_tokens`, `prompt_tokens_details.cached_tokens`, audio details), the Responses API
 * (`input_tokens`, `output_tokens`, `input_tokens_details`), and rerank vendors (`total_tokens` only).
 * Returns undefined when the body carries no usage object at all.
 */
export function readOpenAIUsage(usage: unknown): NormalizedUsage | undefined {
  const object = asObject(usage);
  if (!object) return undefined;
  const promptDetails = asObject(object.prompt_tokens_details) ?? asObject(object.input_tokens_details);
  const completionDetails = asObject(object.completion_tokens_details) ?? asObject(object.output_tokens_details);
  let promptTokens = asCount(object.prompt_tokens ?? object.input_tokens);
  let completionTokens = asCount(object.completion_tokens ?? object.output_tokens);
  const totalTokens = asCount(object.total_tokens);
  if (promptTokens === 0 && completionTokens === 0) promptTokens = totalTokens;
  // OpenAI counts reasoning inside completion_tokens; xAI reports it beside them (its total is
  // prompt + completion + reasoning) and bills it as output. Added only when the total says so.
  const reasoningTokens = asCount(completionDetails?.reasoning_tokens);
  if (reasoningTokens > 0 && totalTokens === promptTokens + completionTokens + reasoningTokens) completionTokens += reasoningTokens;
  return {
    promptTokens,
    completionTokens,
    // Moonshot reports cache hits at the top level (`usage.cached_tokens`), not in the details.
    cachedTokens: asCount(promptDetails?.cached_tokens ?? object.cached_tokens),
    cacheCreationTokens: asCount(promptDetails?.cache_creation_tokens),
    audioInputTokens: asCount(promptDetails?.audio_tokens),
    audioOutputTokens: asCount(completionDetails?.audio_tokens),
  };
}

/** Usage of a complete answer: `usage` at the top, or inside `response` (Responses API events). */
export function extractOpenAIUsage(body: unknown): NormalizedUsage | undefined {
  const object = asObject(body);
  if (!object) return undefined;
  return readOpenAIUsage(object.usage) ?? readOpenAIUsage(asObject(object.response)?.usage);
}

/** The generated text of one chat/completions stream chunk or Responses delta event. */
export function extractOpenAIStreamText(data: unknown): string {
  const object = asObject(data);
  if (!object) return '';
  if (typeof object.delta === 'string') return object.delta;
  const choices = object.choices;
  if (!Array.isArray(choices)) return '';
  let text = '';
  for (const choice of choices) {
    const entry = asObject(choice);
    if (!entry) continue;
    if (typeof entry.text === 'string') text += entry.text;
    const delta = asObject(entry.delta);
    if (!delta) continue;
    if (typeof delta.content === 'string') text += delta.content;
    if (typeof delta.reasoning_content === 'string') text += delta.reasoning_content;
    else if (typeof delta.reasoning === 'string') text += delta.reasoning;
    if (Array.isArray(delta.tool_calls)) {
      for (const call of delta.tool_calls) {
        const fn = asObject(asObject(call)?.function);
        if (typeof fn?.name === 'string') text += fn.name;
        if (typeof fn?.arguments === 'string') text += fn.arguments;
      }
    }
  }
  return text;
}
