import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { dropLogIndexes } from './0032-drop-roll-up-guided-log-indexes.ts';

/**
 * Indexes of our own first log schema that the (column, created_at, id) indexes of 0012 made
 * redundant: the log page orders by (created_at, id), and nothing filters on token_id. Every index is
 * written on each relayed request, so seven unused ones cost a third of a log row's insert time.
 * Only these names are dropped; a new-api database's own indexes are left as they are.
 */
export const supersededLogIndexes: readonly string[] = [
  'idx_logs_user_id_id',
  'idx_logs_model_name_id',
  'idx_logs_username_id',
  'idx_logs_token_name_id',
  'idx_logs_channel_id_id',
  'idx_logs_token_id_id',
  'idx_logs_group_id',
];

export function dropSupersededLogIndexesMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await dropLogIndexes(db, dialect, supersededLogIndexes);
    },
  };
}
