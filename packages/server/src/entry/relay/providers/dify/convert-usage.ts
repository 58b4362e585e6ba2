import type { OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/** Dify's `metadata.usage` (the app's model calls, summed) → the relay's usage; undefined when absent or empty. */
export function normalizeDifyUsage(
  usage: { prompt_tokens?: number | null; completion_tokens?: number | null } | null | undefined,
): NormalizedUsage | undefined {
  if (!usage) return undefined;
  const normalized = { promptTokens: count(usage.prompt_tokens), completionTokens: count(usage.completion_tokens) };
  return normalized.promptTokens + normalized.completionTokens > 0 ? normalized : undefined;
}

export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}
