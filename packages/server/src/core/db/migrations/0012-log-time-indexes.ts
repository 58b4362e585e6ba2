import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { logs, type IndexDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

const byTime = (column: string): IndexDefinition => ({ name: `idx_logs_${column}_created_at_id`, columns: [column, 'created_at', 'id'] });

/**
 * The log page lists newest first by (created_at, id) and nearly always within a time range, so each
 * filter column gets a (column, created_at, id) index: one range scan answers both the page (walked
 * backwards) and its total, whatever the filter's share of ten million rows.
 */
export const logTimeIndexes: readonly IndexDefinition[] = ['username', 'token_name', 'model_name', 'channel_id', 'group'].map(byTime);

export function logTimeIndexesMigration(dialect: SqlDialect) {
  return coreTablesMigration([{ ...logs, indexes: logTimeIndexes }], dialect);
}
