import type { OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';
import type { ClaudeUsage } from './claude-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Anthropic usage → the relay's usage. Anthropic's `input_tokens` EXCLUDES cache reads and cache
 * writes; OpenAI's `prompt_tokens` includes them, so they are added here and billing subtracts
 * them again before applying the cache ratios. Writes with a 1-hour TTL (`cache_creation`) are
 * counted apart, because they cost 2× the input price instead of 1.25×.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching#tracking-cache-performance
 */
export function normalizeClaudeUsage(usage: ClaudeUsage): NormalizedUsage {
  const cachedTokens = count(usage.cache_read_input_tokens);
  const split = usage.cache_creation;
  const oneHour = count(split?.ephemeral_1h_input_tokens);
  // The total is authoritative; the split alone counts when an upstream sends only the split.
  const cacheCreationTokens = Math.max(count(usage.cache_creation_input_tokens), count(split?.ephemeral_5m_input_tokens) + oneHour);
  const normalized: NormalizedUsage = {
    promptTokens: count(usage.input_tokens) + cachedTokens + cacheCreationTokens,
    completionTokens: count(usage.output_tokens),
    cachedTokens,
    cacheCreationTokens,
  };
  return oneHour > 0 ? { ...normalized, cacheCreation1hTokens: Math.min(oneHour, cacheCreationTokens) } : normalized;
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
