import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * One row per live quota journal (billing/charge-journal.ts), in the main database and in the log
 * database: the highest journal sequence whose quota movement (`quota_seq`, main database) and whose
 * log row (`log_seq`, log database) are written. Each advances in the same transaction as the writes
 * it covers, so replaying a journal after a crash applies exactly the records past them. A row also
 * says that its journal belongs to this database: a journal without one is never replayed here.
 */
export const quotaJournal: TableDefinition = {
  name: 'switchboard_quota_journal',
  columns: [
    { name: 'name', type: 'varchar(64)', notNull: true },
    { name: 'quota_seq', type: 'bigint', defaultValue: 0 },
    { name: 'log_seq', type: 'bigint', defaultValue: 0 },
    { name: 'created_at', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['name'],
  indexes: [],
};

export function quotaJournalMigration(dialect: SqlDialect) {
  return coreTablesMigration([quotaJournal], dialect);
}
