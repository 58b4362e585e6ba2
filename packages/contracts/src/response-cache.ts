/** One line of the response cache's savings (`GET /api/response_cache/stats`). */
export interface CacheSavingsLine {
  hits: number;
  misses: number;
  /** Prompt and completion tokens answered from the cache instead of an upstream. */
  tokens_saved: number;
  /** Quota the hits would have cost at full price, less what they were charged. */
  quota_saved: number;
}

/** `GET /api/response_cache/stats?days=N` (administrators): totals, per model and per token. */
export interface CacheSavingsReport extends CacheSavingsLine {
  days: number;
  /** hits / (hits + misses) of the requests a cache rule applied to, 0 … 1. */
  hit_rate: number;
  by_model: Array<CacheSavingsLine & { model: string }>;
  by_token: Array<CacheSavingsLine & { token_id: number; token_name: string }>;
}
