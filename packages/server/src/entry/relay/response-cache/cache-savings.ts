import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { CacheLogRow } from './cache-savings.repository.ts';

export interface SavingsLine {
  readonly hits: number;
  readonly misses: number;
  /** Prompt and completion tokens answered from the cache instead of an upstream. */
  readonly tokens_saved: number;
  /** Quota the hits would have cost at full price, less what they were charged. */
  readonly quota_saved: number;
}

export interface CacheSavings extends SavingsLine {
  readonly hit_rate: number;
  readonly by_model: ReadonlyArray<SavingsLine & { readonly model: string }>;
  readonly by_token: ReadonlyArray<SavingsLine & { readonly token_id: number; readonly token_name: string }>;
}

interface Tally {
  hits: number;
  misses: number;
  tokens_saved: number;
  quota_saved: number;
}

const emptyTally = (): Tally => ({ hits: 0, misses: 0, tokens_saved: 0, quota_saved: 0 });

function add(tally: Tally, row: CacheLogRow, hit: boolean, fullQuota: number): void {
  if (!hit) {
    tally.misses += 1;
    return;
  }
  tally.hits += 1;
  tally.tokens_saved += Number(row.prompt_tokens) + Number(row.completion_tokens);
  tally.quota_saved += Math.max(0, fullQuota - Number(row.quota));
}

/** Hit rate, tokens and quota saved, in total, per model and per token, from the cache's log rows. */
export function summariseSavings(rows: readonly CacheLogRow[]): CacheSavings {
  const total = emptyTally();
  const byModel = new Map<string, Tally>();
  const byToken = new Map<number, Tally & { token_name: string }>();
  for (const row of rows) {
    const other = safeParseJson(row.other ?? '');
    if (!other.ok || typeof other.value !== 'object' || other.value === null) continue;
    const facts = other.value as Record<string, unknown>;
    if (facts.response_cache !== 'hit' && facts.response_cache !== 'miss') continue;
    const hit = facts.response_cache === 'hit';
    const fullQuota = typeof facts.response_cache_full_quota === 'number' ? facts.response_cache_full_quota : Number(row.quota);
    add(total, row, hit, fullQuota);
    const model = byModel.get(row.model_name) ?? emptyTally();
    byModel.set(row.model_name, model);
    add(model, row, hit, fullQuota);
    const token = byToken.get(Number(row.token_id)) ?? { ...emptyTally(), token_name: row.token_name };
    byToken.set(Number(row.token_id), token);
    add(token, row, hit, fullQuota);
  }
  const requests = total.hits + total.misses;
  const bySaving = (left: Tally, right: Tally) => right.quota_saved - left.quota_saved || right.hits - left.hits;
  return {
    ...total,
    hit_rate: requests === 0 ? 0 : total.hits / requests,
    by_model: [...byModel.entries()].map(([model, tally]) => ({ model, ...tally })).sort(bySaving),
    by_token: [...byToken.entries()].map(([token_id, tally]) => ({ token_id, ...tally })).sort(bySaving),
  };
}
