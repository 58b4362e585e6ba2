import type { NormalizedUsage } from '../../provider.ts';

export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The relay's usage in Anthropic's semantics, where input_tokens excludes cache reads and writes. */
export function toAnthropicUsage(usage: NormalizedUsage | undefined): AnthropicUsage {
  const cached = usage?.cachedTokens ?? 0;
  const created = usage?.cacheCreationTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage?.promptTokens ?? 0) - cached - created),
    output_tokens: usage?.completionTokens ?? 0,
    cache_creation_input_tokens: created,
    cache_read_input_tokens: cached,
  };
}
