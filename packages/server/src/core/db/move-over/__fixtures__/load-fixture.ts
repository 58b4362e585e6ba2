/* eslint-disable @typescript-eslint/no-explicit-any -- a fixture database has no Kysely types */
import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from '../../../platform/sql-dsn.ts';
import { type GormModel, gormDdl } from './gorm-ddl.ts';
import type { Row } from './fixture-rows.ts';

function engineValue(value: Row[string], dialect: SqlDialect): Row[string] {
  // The drivers of SQLite and MySQL take no booleans; GORM writes 1/0 there.
  if (typeof value === 'boolean' && dialect !== 'postgres') return value ? 1 : 0;
  return value;
}

/**
 * Creates the tables as GORM would on this engine and fills them. Each table takes the columns it
 * has out of the shared rows; on PostgreSQL the id sequences are moved past the ids written, as
 * GORM's own inserts would have left them.
 */
export async function loadFixture(db: Kysely<any>, dialect: SqlDialect, models: readonly GormModel[], tables: Readonly<Record<string, readonly Row[]>>): Promise<void> {
  for (const statement of gormDdl(models, dialect)) await sql.raw(statement).execute(db);
  for (const model of models) {
    const rows = tables[model.table] ?? [];
    const columns = model.fields.map((field) => field.column);
    const shaped = rows.map((row) => Object.fromEntries(columns.filter((column) => column in row).map((column) => [column, engineValue(row[column] ?? null, dialect)])));
    for (let start = 0; start < shaped.length; start += 200) {
      await db
        .insertInto(model.table)
        .values(shaped.slice(start, start + 200))
        .execute();
    }
    if (dialect === 'postgres' && columns.includes('id') && shaped.length > 0) {
      await sql`select setval(pg_get_serial_sequence(${model.table}, 'id'), (select max(id) from ${sql.table(model.table)}))`.execute(db);
    }
  }
}
