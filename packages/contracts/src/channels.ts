/**
 * An upstream channel as the console API answers it (`GET /api/channel/`, `/search`, `/{id}`): never
 * with its key, which leaves the server only through the super administrator's logged reveal.
 */
export interface ChannelView {
  id: number;
  /** See channelTypes. */
  type: number;
  openai_organization: string;
  test_model: string;
  /** See ChannelStatus. */
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  /** Milliseconds; 0 means never tested. */
  response_time: number;
  base_url: string;
  other: string;
  /** US dollars. */
  balance: number;
  balance_updated_time: number;
  /** Comma-separated. */
  models: string;
  /** Comma-separated group names. */
  group: string;
  used_quota: number;
  model_mapping: string;
  status_code_mapping: string;
  priority: number;
  auto_ban: number;
  /** JSON with `status_reason` and `status_time` once the system disabled the channel. */
  other_info: string;
  tag: string;
  setting: string;
  param_override: string;
  header_override: string;
  remark: string;
  /** new-api's multi-key settings: `is_multi_key`, `multi_key_mode` (random | polling), `multi_key_polling_index`, `multi_key_status_list`. */
  channel_info?: Record<string, unknown>;
}
