import type { OpenAIFinishReason, OpenAIUsage } from '@switchboard/contracts';
import type { NormalizedUsage } from '../../provider.ts';
import type { CohereMeta } from './cohere-api.ts';

const count = (value: number | null | undefined): number => (typeof value === 'number' && value > 0 ? Math.floor(value) : 0);

/**
 * Cohere's `meta` → the relay's usage. `billed_units` is what Cohere charges the account (without the
 * tokens of its own prompt template), so it is what the caller pays; `tokens` counts when an answer
 * carries no billed units. Undefined when neither has a token count (a rerank bills search units).
 * @see https://docs.cohere.com/docs/rate-limits-and-pricing (billed units)
 */
export function normalizeCohereUsage(meta: CohereMeta | null | undefined): NormalizedUsage | undefined {
  const counts = [meta?.billed_units, meta?.tokens].find((units) => typeof units?.input_tokens === 'number' || typeof units?.output_tokens === 'number');
  if (!counts) return undefined;
  return { promptTokens: count(counts.input_tokens), completionTokens: count(counts.output_tokens) };
}

export function toOpenAIUsage(usage: NormalizedUsage): OpenAIUsage {
  return { prompt_tokens: usage.promptTokens, completion_tokens: usage.completionTokens, total_tokens: usage.promptTokens + usage.completionTokens };
}

/**
 * Cohere `finish_reason` → OpenAI `finish_reason`. ERROR_TOXIC is Cohere's content refusal.
 * @see https://docs.cohere.com/v1/reference/chat (finish_reason)
 */
export function mapFinishReason(reason: string | null | undefined): OpenAIFinishReason {
  switch (reason) {
    case 'MAX_TOKENS':
    case 'ERROR_LIMIT':
      return 'length';
    case 'ERROR_TOXIC':
      return 'content_filter';
    default:
      return 'stop';
  }
}
