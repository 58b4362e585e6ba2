import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';
import { jobState } from './0010-job-state.ts';

/**
 * Hourly totals of the logs table (log database): rows and quota per hour, type and model, up to the
 * log id in `switchboard_job_state` ('log_hourly'). Log totals and stats over long ranges read these
 * instead of millions of log rows; the hours at the edges of a range and the newest logs are read
 * from the logs table itself, so answers stay exact.
 */
export const logHourly: TableDefinition = {
  name: 'switchboard_log_hourly',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'model_name', type: 'varchar(191)', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type', 'model_name'],
  // Migration 0035 replaced 0011's narrow (model_name, bucket) index with this one.
  indexes: [{ name: 'idx_log_hourly_by_model', columns: ['model_name', 'bucket'], include: ['type', 'count', 'quota'] }],
};

/** The job-state table also lives beside the logs, so the rollup cursor commits with the rollup rows. */
export function logHourlyMigration(dialect: SqlDialect) {
  return coreTablesMigration([jobState, logHourly], dialect);
}
