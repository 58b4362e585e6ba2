import { listFilterNumber, textParameter } from '../../../core/http/listing/query-parameters.ts';

/** What the log page filters by; absent (or empty, unreadable, or type 0) means "any". */
export interface LogFilters {
  type?: number | undefined;
  userId?: number | undefined;
  /**
   * The users a `username` filter names (resolved from the users table by the service), so the logs
   * are read through their `(user_id, created_at)` index instead of matching `username`.
   */
  userIds?: readonly number[] | undefined;
  username?: string | undefined;
  tokenName?: string | undefined;
  modelName?: string | undefined;
  channelId?: number | undefined;
  group?: string | undefined;
  start?: number | undefined;
  end?: number | undefined;
}

/**
 * Reads the filters of `/api/log/` (administrators also filter by username and channel) from the
 * query string. `self` pins the caller's own user id and ignores the administrator-only filters.
 */
export function logFiltersFrom(query: Record<string, unknown>, self?: { userId: number }): LogFilters {
  const nonEmpty = (value: string) => (value === '' ? undefined : value);
  const positive = (value: number | undefined) => (value !== undefined && value > 0 ? value : undefined);
  return {
    type: positive(listFilterNumber(query, 'type')),
    tokenName: nonEmpty(textParameter(query, 'token_name')),
    modelName: nonEmpty(textParameter(query, 'model_name')),
    group: nonEmpty(textParameter(query, 'group')),
    start: positive(listFilterNumber(query, 'start_timestamp')),
    end: positive(listFilterNumber(query, 'end_timestamp')),
    ...(self ? { userId: self.userId } : { username: nonEmpty(textParameter(query, 'username')), channelId: positive(listFilterNumber(query, 'channel')) }),
  };
}
