/** The filters of the log page; the list and its stats read the same ones. */
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

/** Every log query (list and stats) lives under this key. */
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
