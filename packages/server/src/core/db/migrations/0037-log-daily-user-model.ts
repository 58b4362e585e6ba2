import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { ensureTable } from '../ensure-tables.ts';
import type { TableDefinition } from '../table-definitions.ts';

/**
 * Daily log totals per type, user and model, kept by the per-user job ('log_daily_user') with the
 * per-token table (0036) in the same transaction and under the same cursor. It replaces 0036's per
 * (day, type, user) table: a user's totals without a model sum over the models, with a model read
 * that model's rows. A heavy user with the top model (1.35 million logs of 10 million, a fifth of
 * them that model's) was counted in the logs' user index: 113–393 ms a page.
 */
export const logDailyUserModel: TableDefinition = {
  name: 'switchboard_log_daily_user_model',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'user_id', type: 'bigint', notNull: true },
    // The same width as logs.model_name.
    { name: 'model_name', type: 'varchar(191)', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type', 'user_id', 'model_name'],
  // The days of the range first, so a user's total over a month reads that month whatever the
  // retention; a model is matched beside the entry (one user's rows of a month are a few thousand).
  indexes: [{ name: 'idx_log_daily_user_model_by_user', columns: ['user_id', 'bucket', 'model_name'], include: ['type', 'count', 'quota'] }],
};

/**
 * Creates the per-model table, drops 0036's per-user one (our own table, which nothing reads any
 * more), and restarts the job from log id 0: the new table can only be filled from the logs, and the
 * per-token table shares its cursor, so both are emptied and counted again in the job's bounded
 * batches. Until it has caught up the totals read the logs after its cursor (0 at first), so they
 * stay exact. Each step is safe to repeat, should the migration be run again after a crash (MySQL
 * commits each DDL statement on its own).
 */
export function logDailyUserModelMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await ensureTable(db, logDailyUserModel, dialect);
      await sql`update ${sql.table('switchboard_job_state')} set ${sql.ref('last_id')} = 0 where ${sql.ref('name')} = 'log_daily_user'`.execute(db);
      await sql`delete from ${sql.table('switchboard_log_daily_user_token')}`.execute(db);
      await sql`delete from ${sql.table('switchboard_log_daily_user_model')}`.execute(db);
      await db.schema.dropTable('switchboard_log_daily_user').ifExists().execute();
    },
  };
}
