import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Hourly totals of the logs per channel, type (consume and error only) and latency bucket (log
 * database), up to the log id in its own `switchboard_job_state` row ('log_hourly_channel_latency').
 * The dashboard's per-channel view reads calls, errors and cost from it, and latency percentiles from
 * the bucket counts: `latency` is the bucket's upper bound in whole seconds, as logs.use_time is kept
 * (see api/data/latency-buckets.ts). The newest logs, after the cursor, are read from the logs table.
 */
export const logHourlyChannelLatency: TableDefinition = {
  name: 'switchboard_log_hourly_channel_latency',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'channel_id', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'latency', type: 'int', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'channel_id', 'type', 'latency'],
  indexes: [],
};

export function logHourlyChannelLatencyMigration(dialect: SqlDialect) {
  return coreTablesMigration([logHourlyChannelLatency], dialect);
}
