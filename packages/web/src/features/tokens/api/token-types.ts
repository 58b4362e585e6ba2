/** A relay key as the console API returns it (`tokens` row; `key` is stored and sent without `sk-`). */
export interface Token {
  id: number;
  name: string;
  key: string;
  status: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  /** -1 never expires, else Unix seconds. */
  expired_time: number;
  created_time: number;
  accessed_time?: number;
  model_limits_enabled: boolean;
  /** Comma-separated model names. */
  model_limits: string;
  /** One IP or CIDR per line. */
  allow_ips: string;
  group: string;
}

/** What the token drawer sends on create and update. */
export interface TokenInput {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
}

export const tokensQueryKey = ['tokens'] as const;

export function fullKey(token: Pick<Token, 'key'>): string {
  return token.key.startsWith('sk-') ? token.key : `sk-${token.key}`;
}
