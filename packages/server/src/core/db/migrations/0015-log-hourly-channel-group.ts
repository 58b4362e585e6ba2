import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Hourly totals of the logs table per type, channel and group (log database), up to the log id in
 * its own `switchboard_job_state` row ('log_hourly_channel_group'). The log page's totals and stats
 * filtered by channel or group read these for whole hours, as model and type filters read
 * `switchboard_log_hourly` (0011). On a database with logs already, the job counts them from id 0 in
 * bounded batches; until it has caught up, the logs after its cursor are read directly.
 */
export const logHourlyChannelGroup: TableDefinition = {
  name: 'switchboard_log_hourly_channel_group',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'channel_id', type: 'bigint', notNull: true },
    // The same width as logs.group (the schema builder quotes the reserved word).
    { name: 'group', type: 'varchar(64)', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type', 'channel_id', 'group'],
  // Migration 0035 replaced the narrow (channel_id, bucket) and (group, bucket) indexes of 0015 with these.
  indexes: [
    { name: 'idx_log_hourly_channel_group_by_channel', columns: ['channel_id', 'bucket'], include: ['type', 'count', 'quota'] },
    {
      name: 'idx_log_hourly_channel_group_by_channel_group',
      columns: ['channel_id', 'group', 'bucket'],
      include: ['type', 'count', 'quota'],
    },
  ],
};

export function logHourlyChannelGroupMigration(dialect: SqlDialect) {
  return coreTablesMigration([logHourlyChannelGroup], dialect);
}
