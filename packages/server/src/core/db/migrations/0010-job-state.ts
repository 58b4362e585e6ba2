import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Where background jobs keep their progress (the quota-data aggregation's last log id). Updating the
 * `last_id` with a compare-and-set is also what keeps two instances from aggregating the same logs.
 */
export const jobState: TableDefinition = {
  name: 'switchboard_job_state',
  columns: [
    { name: 'name', type: 'varchar(64)', notNull: true },
    { name: 'last_id', type: 'bigint', defaultValue: 0 },
    { name: 'updated_at', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['name'],
  indexes: [],
};

export function jobStateMigration(dialect: SqlDialect) {
  return coreTablesMigration([jobState], dialect);
}
