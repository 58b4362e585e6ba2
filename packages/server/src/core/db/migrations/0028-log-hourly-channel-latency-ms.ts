import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';
import { logHourlyChannelLatency } from './0023-log-hourly-channel-latency.ts';

/**
 * The per-channel roll-up of 0023 again, with `latency` the bucket's upper bound in milliseconds
 * (consume logs carry their duration in `other.use_time_ms`; older ones count as use_time × 1000), and
 * its own cursor ('log_hourly_channel_latency_ms'), so it is built from the first log on. The table
 * of 0023, in whole seconds, is left as it is.
 */
export const logHourlyChannelLatencyMs: TableDefinition = { ...logHourlyChannelLatency, name: 'switchboard_log_hourly_channel_latency_ms' };

export function logHourlyChannelLatencyMsMigration(dialect: SqlDialect) {
  return coreTablesMigration([logHourlyChannelLatencyMs], dialect);
}
