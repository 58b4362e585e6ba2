/** What the token drawer sends on create and update (the server answers a TokenView). */
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
