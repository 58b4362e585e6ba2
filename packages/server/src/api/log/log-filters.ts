import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { integerParameter, textParameter } from '../listing/page-query.ts';

/** What the log page filters by; absent (or empty, or type 0) means "any". */
export interface LogFilters {
  type?: number | undefined;
  userId?: number | undefined;
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
    type: positive(integerParameter(query, 'type')),
    tokenName: nonEmpty(textParameter(query, 'token_name')),
    modelName: nonEmpty(textParameter(query, 'model_name')),
    group: nonEmpty(textParameter(query, 'group')),
    start: positive(integerParameter(query, 'start_timestamp')),
    end: positive(integerParameter(query, 'end_timestamp')),
    ...(self ? { userId: self.userId } : { username: nonEmpty(textParameter(query, 'username')), channelId: positive(integerParameter(query, 'channel')) }),
  };
}

/**
 * Equality filters only (no LIKE), so each one can use its `(column, id)` or `(column, created_at)`
 * index on all three engines.
 */
export function applyLogFilters<O>(query: SelectQueryBuilder<Database, 'logs', O>, filters: LogFilters): SelectQueryBuilder<Database, 'logs', O> {
  let filtered = query;
  if (filters.type !== undefined) filtered = filtered.where('type', '=', filters.type);
  if (filters.userId !== undefined) filtered = filtered.where('user_id', '=', filters.userId);
  if (filters.username !== undefined) filtered = filtered.where('username', '=', filters.username);
  if (filters.tokenName !== undefined) filtered = filtered.where('token_name', '=', filters.tokenName);
  if (filters.modelName !== undefined) filtered = filtered.where('model_name', '=', filters.modelName);
  if (filters.channelId !== undefined) filtered = filtered.where('channel_id', '=', filters.channelId);
  if (filters.group !== undefined) filtered = filtered.where('group', '=', filters.group);
  if (filters.start !== undefined) filtered = filtered.where('created_at', '>=', filters.start);
  if (filters.end !== undefined) filtered = filtered.where('created_at', '<=', filters.end);
  return filtered;
}
