import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { ensureTable } from '../ensure-tables.ts';
import type { TableDefinition } from '../table-definitions.ts';

/**
 * Hourly log totals per type, kept by the model roll-up's job (`switchboard_log_hourly`, 0011) in the
 * same transaction and under the same cursor ('log_hourly'). The totals of the log page without a
 * filter or with a type alone read a few rows an hour here; summing a month of the per-model table
 * took hundreds of milliseconds on 10 million logs.
 */
export const logHourlyType: TableDefinition = {
  name: 'switchboard_log_hourly_type',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type'],
  indexes: [],
};

/**
 * Hourly log totals per type and group, kept by the channel and group roll-up's job
 * (`switchboard_log_hourly_channel_group`, 0015) the same way ('log_hourly_channel_group'): the
 * totals and the pages of a group filter read one row per hour and type, not one per channel.
 */
export const logHourlyGroup: TableDefinition = {
  name: 'switchboard_log_hourly_group',
  columns: [
    { name: 'bucket', type: 'bigint', notNull: true },
    { name: 'type', type: 'int', notNull: true },
    // The same width as logs.group (the schema builder quotes the reserved word).
    { name: 'group', type: 'varchar(64)', notNull: true },
    { name: 'count', type: 'bigint', defaultValue: 0 },
    { name: 'quota', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['bucket', 'type', 'group'],
  // Migration 0035 replaced 0033's narrow (group, bucket) index with this one.
  indexes: [{ name: 'idx_log_hourly_group_by_group', columns: ['group', 'bucket'], include: ['type', 'count', 'quota'] }],
};

/**
 * Creates both tables and fills them from the finer roll-up each is kept with, so they count exactly
 * the logs up to that roll-up's cursor without reading the logs again (a 10-million-row catch-up took
 * ten minutes per engine). Filled only while empty: a rerun after a crash between the fill and the
 * migration's record does not count anything twice.
 */
export function logHourlyTypeAndGroupMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await ensureTable(db, logHourlyType, dialect);
      await ensureTable(db, logHourlyGroup, dialect);
      const empty = async (table: string) => (await sql`select 1 from ${sql.table(table)} limit 1`.execute(db)).rows.length === 0;
      const bucket = sql.ref('bucket');
      const type = sql.ref('type');
      const group = sql.ref('group');
      const count = sql.ref('count');
      const quota = sql.ref('quota');
      if (await empty('switchboard_log_hourly_type')) {
        await sql`insert into ${sql.table('switchboard_log_hourly_type')} (${bucket}, ${type}, ${count}, ${quota})
          select ${bucket}, ${type}, sum(${count}), sum(${quota}) from ${sql.table('switchboard_log_hourly')} group by ${bucket}, ${type}`.execute(db);
      }
      if (await empty('switchboard_log_hourly_group')) {
        await sql`insert into ${sql.table('switchboard_log_hourly_group')} (${bucket}, ${type}, ${group}, ${count}, ${quota})
          select ${bucket}, ${type}, ${group}, sum(${count}), sum(${quota}) from ${sql.table('switchboard_log_hourly_channel_group')}
          group by ${bucket}, ${type}, ${group}`.execute(db);
      }
    },
  };
}
