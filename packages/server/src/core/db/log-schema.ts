import type { Generated, Insertable, Selectable } from 'kysely';
import type { Flag } from './column-types.ts';

/*
 * Row types of the log database's tables (LOG_SQL_DSN when set, else the main database): the logs
 * themselves, their hourly roll-ups and the stored request bodies. `schema.ts` puts them in `Database`.
 */

export interface LogsTable {
  id: Generated<number>;
  user_id: number;
  created_at: number;
  type: number;
  content: string | null;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: Flag;
  channel_id: number;
  token_id: number;
  group: string;
  ip: string;
  request_id: string;
  other: string | null;
}

/** Hourly log totals per type and model (migration 0011, log database). */
export interface LogHourlyTable {
  bucket: number;
  type: number;
  model_name: string;
  count: number;
  quota: number;
}

/** Hourly log totals per type, channel and group (migration 0015, log database). */
export interface LogHourlyChannelGroupTable {
  bucket: number;
  type: number;
  channel_id: number;
  group: string;
  count: number;
  quota: number;
}

/** Hourly log totals per type (migration 0033, log database; kept with switchboard_log_hourly). */
export interface LogHourlyTypeTable {
  bucket: number;
  type: number;
  count: number;
  quota: number;
}

/** Hourly log totals per type and group (migration 0033, log database; kept with switchboard_log_hourly_channel_group). */
export interface LogHourlyGroupTable {
  bucket: number;
  type: number;
  group: string;
  count: number;
  quota: number;
}

/** Daily log totals per type, user and token name (migration 0036, log database; `bucket` is the start of a UTC day). */
export interface LogDailyUserTokenTable {
  bucket: number;
  type: number;
  user_id: number;
  token_name: string;
  count: number;
  quota: number;
}

/** Daily log totals per type, user and model (migration 0037, log database; kept with switchboard_log_daily_user_token). */
export interface LogDailyUserModelTable {
  bucket: number;
  type: number;
  user_id: number;
  model_name: string;
  count: number;
  quota: number;
}

/** Hourly log totals per channel, type and latency bucket (migrations 0023 in seconds and 0028 in milliseconds, log database). */
export interface LogHourlyChannelLatencyTable {
  bucket: number;
  channel_id: number;
  type: number;
  /** The latency bucket's upper bound: whole seconds in 0023's table, milliseconds in 0028's. */
  latency: number;
  count: number;
  quota: number;
}

/** `switchboard_log_payloads` (log database, migration 0025): redacted, capped bodies of one relayed request. */
export interface LogPayloadsTable {
  id: Generated<number>;
  request_id: string;
  user_id: number;
  token_id: number;
  created_at: number;
  is_stream: Flag;
  request_body: string | null;
  response_body: string | null;
  request_truncated: Flag;
  response_truncated: Flag;
}

export type LogRow = Selectable<LogsTable>;
/** A `logs` row as it is inserted: every column but the generated id. */
export type NewLogRow = Omit<Insertable<LogsTable>, 'id'>;
