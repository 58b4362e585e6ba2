import type { Page } from '@switchboard/contracts';

/** One usage-log row (`logs` table in the classic wire shape). */
export interface LogEntry {
  id: number;
  created_at: number;
  /** 1 top-up, 2 consume, 3 admin, 4 system (5 error, 6 refund on newer servers). */
  type: number;
  content: string;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  /** Seconds. */
  use_time: number;
  is_stream: boolean;
  /** Channel id (JSON name `channel`). */
  channel: number;
  channel_name?: string;
  group: string;
  /** JSON text, see `LogOther`. */
  other: string;
}

export interface LogFilters {
  type: number;
  start_timestamp: number;
  end_timestamp: number;
  token_name: string;
  model_name: string;
  group: string;
  /** Administrators only. */
  username: string;
  channel: string;
}

export interface LogStat {
  quota: number;
  rpm: number;
  tpm: number;
}

export type LogPage = Page<LogEntry>;

export const logsQueryKey = ['logs'] as const;

/** The query parameters of both the list and the stats; the self endpoints ignore admin-only ones. */
export function filterQuery(filters: LogFilters, admin: boolean): Record<string, string | number> {
  const query: Record<string, string | number> = {
    type: filters.type,
    start_timestamp: filters.start_timestamp,
    end_timestamp: filters.end_timestamp,
    token_name: filters.token_name,
    model_name: filters.model_name,
    group: filters.group,
  };
  if (admin) {
    query.username = filters.username;
    query.channel = filters.channel;
  }
  return query;
}
