import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Daily log totals (UTC days) per type, user and token name, up to the log id in its own
 * `switchboard_job_state` row ('log_daily_user'). A token name's total, with or without a user (and no
 * model, channel or group), sums a row per day and type here instead of counting the logs: a user
 * with 1.35 million logs of 10 million took 220–600 ms on PostgreSQL walking the user index. Per
 * hour it would have about as many rows as logs (3.1 million per (hour, type, user) for 10 million
 * logs); per day a heavy user has a few rows a day. On a database with logs already the job counts
 * them from id 0 in bounded batches; until it has caught up, the logs after its cursor are read
 * directly, so the totals are exact throughout.
 */
export const logDailyUserToken: TableDefinition = {
  name: 'switchboard_log_daily_user_token',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'user_id', type: 'bigint', notNull: true },
    // The same width as logs.token_name.
    { name: 'token_name', type: 'varchar(191)', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type', 'user_id', 'token_name'],
  // Token name first: a token name is summed with a user (a user's own page, or a username) or alone
  // (an administrator's filter; new-api's token names are per user, so usually one user's rows).
  indexes: [
    {
      name: 'idx_log_daily_user_token_by_token_user',
      columns: ['token_name', 'user_id', 'bucket'],
      include: ['type', 'count', 'quota'],
    },
  ],
};

/**
 * Daily log totals per type and user, kept by the same job in the same transaction and under the same
 * cursor: a user's total without a token name reads a row per day and type, not one per token.
 */
export const logDailyUser: TableDefinition = {
  name: 'switchboard_log_daily_user',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'user_id', type: 'bigint', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type', 'user_id'],
  indexes: [{ name: 'idx_log_daily_user_by_user', columns: ['user_id', 'bucket'], include: ['type', 'count', 'quota'] }],
};

export function logDailyUserMigration(dialect: SqlDialect) {
  return coreTablesMigration([logDailyUserToken, logDailyUser], dialect);
}
