import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { existingIndexes } from '../ensure-tables.ts';

/**
 * The (column, created_at, id) indexes of 0012 that the log page no longer reads: a username filter
 * is resolved to user ids first (the users table is small) and read through `(user_id, created_at)`,
 * and a model, channel or group filter finds its hours in the hourly roll-ups and reads only those
 * hours through `(created_at, id)`. Each index is written on every relayed request; with varied rows
 * these four were about a third of a log row's insert time. The token name index stays: no roll-up is
 * keyed by token. Only these names are dropped; new-api's own indexes (which it recreates on its start
 * anyway) are left as they are.
 */
export const rollUpGuidedLogIndexes: readonly string[] = [
  'idx_logs_username_created_at_id',
  'idx_logs_model_name_created_at_id',
  'idx_logs_channel_id_created_at_id',
  'idx_logs_group_created_at_id',
];

/** Drops those of `names` that exist on `logs` (so running it twice, or on any database, is safe). */
export function dropLogIndexes(db: Kysely<unknown>, dialect: SqlDialect, names: readonly string[]): Promise<void> {
  return dropIndexesOf(db, dialect, 'logs', names);
}

/** Drops those of `names` that exist on `table`. */
export async function dropIndexesOf(db: Kysely<unknown>, dialect: SqlDialect, table: string, names: readonly string[]): Promise<void> {
  const present = await existingIndexes(db, table, dialect);
  for (const name of names) {
    if (!present.has(name)) continue;
    // MySQL names an index within its table; SQLite and PostgreSQL within the schema.
    const drop = db.schema.dropIndex(name);
    await (dialect === 'mysql' ? drop.on(table) : drop).execute();
  }
}

export function dropRollUpGuidedLogIndexesMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await dropLogIndexes(db, dialect, rollUpGuidedLogIndexes);
    },
  };
}
