import type { TokenLimitInput } from '../lib/token-limits.ts';

/** What the token drawer sends on create and update (the server answers a TokenView). */
export interface TokenInput extends TokenLimitInput {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  /** Store this token's request and response bodies (administrators only). */
  log_payload?: boolean;
  response_cache_off?: boolean;
  model_fallbacks?: string;
}
