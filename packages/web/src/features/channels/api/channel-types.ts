/** An upstream channel as the console API returns it (`channels` row without its key, which only root can reveal). */
export interface Channel {
  id: number;
  type: number;
  openai_organization?: string | null;
  test_model?: string | null;
  status: number;
  name: string;
  weight: number;
  created_time: number;
  test_time: number;
  /** Milliseconds; 0 means never tested. */
  response_time: number;
  base_url?: string | null;
  other?: string | null;
  /** US dollars. */
  balance: number;
  balance_updated_time: number;
  /** Comma-separated. */
  models: string;
  /** Comma-separated group names. */
  group: string;
  used_quota: number;
  model_mapping?: string | null;
  status_code_mapping?: string | null;
  priority: number;
  auto_ban: number;
  /** JSON with `status_reason` and `status_time` once the system disabled the channel. */
  other_info?: string | null;
  tag?: string | null;
  setting?: string | null;
}

/** The channel fields the editor sends on create and update. */
export interface ChannelInput {
  type: number;
  name: string;
  key: string;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  test_model: string;
  auto_ban: number;
  tag: string;
  priority: number;
  weight: number;
}

export interface ChannelListFilters {
  idSort: boolean;
  tagMode: boolean;
}

export const channelsQueryKey = ['channels'] as const;
