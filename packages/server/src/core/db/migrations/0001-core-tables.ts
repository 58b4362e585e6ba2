import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { ensureTable } from '../ensure-tables.ts';
import type { TableDefinition } from '../table-definitions.ts';

/** Creates (or completes, on an imported new-api database) the given tables. */
export function coreTablesMigration(tables: readonly TableDefinition[], dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      for (const table of tables) await ensureTable(db, table, dialect);
    },
  };
}
