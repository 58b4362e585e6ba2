import type { OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/** Coze's chat `usage` (`input_count`, `output_count`) → the relay's usage; undefined when it counted nothing. */
export function normalizeCozeUsage(usage: { input_count?: number | null; output_count?: number | null } | null | undefined): NormalizedUsage | undefined {
  if (!usage) return undefined;
  const normalized = { promptTokens: count(usage.input_count), completionTokens: count(usage.output_count) };
  return normalized.promptTokens + normalized.completionTokens > 0 ? normalized : undefined;
}

export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}
