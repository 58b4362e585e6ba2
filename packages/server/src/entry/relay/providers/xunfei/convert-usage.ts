import type { NormalizedUsage } from '../../provider.ts';
import type { SparkUsage } from './spark-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Spark usage → the relay's usage. `prompt_tokens` counts every turn sent (history included), which
 * is what iFlytek bills; `question_tokens` is only the last question and is not used.
 */
export function normalizeSparkUsage(usage: SparkUsage): NormalizedUsage {
  return { promptTokens: count(usage.prompt_tokens), completionTokens: count(usage.completion_tokens) };
}
