/**
 * A relay key as the console API answers it (`GET /api/token/`, `/search`, `/{id}`, and the answers
 * of create and update). `key` is stored and sent without `sk-`: it is its owner's to copy.
 */
export interface TokenView {
  id: number;
  user_id: number;
  key: string;
  /** See TokenStatus. */
  status: number;
  name: string;
  created_time: number;
  accessed_time: number;
  /** -1 never expires, else Unix seconds. */
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  /** Comma-separated model names. */
  model_limits: string;
  /** One IP or CIDR per line. */
  allow_ips: string;
  used_quota: number;
  group: string;
  /** The token's own limits: requests per minute, tokens per minute, concurrent requests; 0 = unlimited. */
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
  /** Request and response bodies of this token's requests are stored (administrators' tokens only). */
  log_payload: boolean;
  /** The owner switched the response cache off for this token. */
  response_cache_off: boolean;
  /** The token's own model fallbacks as JSON (`{"gpt-5": ["gpt-5-mini"]}`), '' to use the ModelFallbacks setting. */
  model_fallbacks: string;
}
