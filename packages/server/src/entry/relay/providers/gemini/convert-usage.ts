import type { NormalizedUsage } from '../../provider.ts';
import type { GeminiUsage } from './gemini-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Gemini usage → the relay's usage. `promptTokenCount` already includes cached content (as
 * OpenAI's prompt_tokens does); thinking tokens are billed as output, so they join the completion.
 * @see https://ai.google.dev/api/generate-content#UsageMetadata
 */
export function normalizeGeminiUsage(usage: GeminiUsage): NormalizedUsage {
  return {
    promptTokens: count(usage.promptTokenCount) + count(usage.toolUsePromptTokenCount),
    completionTokens: count(usage.candidatesTokenCount) + count(usage.thoughtsTokenCount),
    cachedTokens: count(usage.cachedContentTokenCount),
  };
}
