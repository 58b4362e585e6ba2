import { QuotaType, type PricingEntry } from '@switchboard/contracts';

export type PriceUnit = '1M' | '1K';

export interface DisplayedPrice {
  kind: 'call' | 'token';
  /** Per call, or per unit of prompt tokens. */
  prompt: number;
  completion: number;
}

/**
 * new-api's prices: prompt price per 1M tokens = model ratio × 2 × group ratio, completion =
 * that × completion ratio; per-call models cost model_price × group ratio.
 */
export function priceOf(entry: PricingEntry, groupRatio: number, unit: PriceUnit): DisplayedPrice {
  if (entry.quota_type === QuotaType.perCall) return { kind: 'call', prompt: entry.model_price * groupRatio, completion: 0 };
  const perMillion = entry.model_ratio * 2 * groupRatio;
  const scale = unit === '1K' ? 1 / 1000 : 1;
  return { kind: 'token', prompt: perMillion * scale, completion: perMillion * entry.completion_ratio * scale };
}

export function formatUsd(value: number): string {
  return `$${Number(value.toFixed(6))}`;
}

/** Case-insensitive subsequence match, so "g4om" finds "gpt-4o-mini". */
export function fuzzyMatch(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  const needle = query.toLowerCase().replace(/\s+/g, '');
  if (!needle) return true;
  if (haystack.includes(needle)) return true;
  let position = 0;
  for (const character of needle) {
    position = haystack.indexOf(character, position);
    if (position === -1) return false;
    position += 1;
  }
  return true;
}
