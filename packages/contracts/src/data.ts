/** One hourly bucket of the data dashboard (`GET /api/data/`, `/api/data/self/`): one user's use of one model in that hour. */
export interface QuotaDataRow {
  user_id: number;
  username: string;
  model_name: string;
  /** Start of the hour, Unix seconds. */
  created_at: number;
  token_used: number;
  count: number;
  quota: number;
}

/** `GET /api/data/users`: one user's hour, all models together. */
export type QuotaDataUserRow = Omit<QuotaDataRow, 'user_id' | 'model_name'>;

/**
 * `GET /api/data/channels` (administrators): one channel's traffic over the range. `calls` counts
 * answered and failed calls, `errors` the failed ones; latency percentiles (whole seconds, the upper
 * bound of the latency bucket the call fell in) are of answered calls, null without any.
 */
export interface ChannelStatRow {
  channel_id: number;
  /** '' for a deleted channel or calls that failed before one was chosen (channel 0). */
  channel_name: string;
  calls: number;
  errors: number;
  quota: number;
  /** Whole seconds (the first answer's shape): the millisecond percentile rounded up. */
  latency_p50: number | null;
  latency_p90: number | null;
  latency_p99: number | null;
  /** Milliseconds: the bound of the latency bucket the p-th answered call falls in (3,600,000 above 600 s). */
  latency_p50_ms: number | null;
  latency_p90_ms: number | null;
  latency_p99_ms: number | null;
}
