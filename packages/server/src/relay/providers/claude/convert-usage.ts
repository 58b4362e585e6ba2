import type { OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';
import type { ClaudeUsage } from './claude-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Anthropic usage → the relay's usage. Anthropic's `input_tokens` EXCLUDES cache reads and cache
 * writes; OpenAI's `prompt_tokens` includes them, so they are added here and billing subtracts
 * them again before applying the cache ratios.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
export function normalizeClaudeUsage(usage: ClaudeUsage): NormalizedUsage {
  const cachedTokens = count(usage.cache_read_input_tokens);
  const cacheCreationTokens = count(usage.cache_creation_input_tokens);
  return {
    promptTokens: count(usage.input_tokens) + cachedTokens + cacheCreationTokens,
    completionTokens: count(usage.output_tokens),
    cachedTokens,
    cacheCreationTokens,
  };
}

/** The relay's usage in OpenAI's wire shape, for the answer the caller gets. */
export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  const result: OpenAIUsage = {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.promptTokens + usage.completionTokens,
  };
  if (usage.cachedTokens || usage.cacheCreationTokens) {
    result.prompt_tokens_details = { cached_tokens: usage.cachedTokens ?? 0 };
    if (usage.cacheCreationTokens) result.prompt_tokens_details.cache_creation_tokens = usage.cacheCreationTokens;
  }
  return result;
}
