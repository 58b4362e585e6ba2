/* eslint-disable @typescript-eslint/no-explicit-any -- the snapshot reads any database */
import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from '../../../platform/sql-dsn.ts';

/** A column as the engine reports it: what a migration must never change on an existing one. */
export interface ColumnSnapshot {
  readonly type: string;
  readonly nullable: boolean;
  readonly defaultValue: string | null;
}

export interface IndexSnapshot {
  readonly columns: readonly string[];
  readonly unique: boolean;
}

export interface TableSnapshot {
  readonly columns: Readonly<Record<string, ColumnSnapshot>>;
  readonly indexes: Readonly<Record<string, IndexSnapshot>>;
  /** Every row keyed by its primary key, cut down to the columns above. */
  readonly rows: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
}

export type SchemaSnapshot = Readonly<Record<string, TableSnapshot>>;

type Rows<T> = Promise<{ rows: T[] }>;

async function tableNames(db: Kysely<any>, dialect: SqlDialect): Promise<string[]> {
  if (dialect === 'sqlite') {
    const result = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
    return result.rows.map((row) => row.name);
  }
  const schema = dialect === 'postgres' ? sql`current_schema()` : sql`database()`;
  const result = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = ${schema} and table_type = 'BASE TABLE'`.execute(db);
  return result.rows.map((row) => row.name);
}

async function columnsOf(db: Kysely<any>, dialect: SqlDialect, table: string): Promise<Record<string, ColumnSnapshot>> {
  const columns: Record<string, ColumnSnapshot> = {};
  if (dialect === 'sqlite') {
    const result = await (sql`select * from pragma_table_info(${table})`.execute(db) as Rows<{
      name: string;
      type: string;
      notnull: number;
      dflt_value: string | null;
    }>);
    for (const row of result.rows) columns[row.name] = { type: row.type, nullable: row.notnull === 0, defaultValue: row.dflt_value };
    return columns;
  }
  const schema = dialect === 'postgres' ? sql`current_schema()` : sql`database()`;
  const type = dialect === 'postgres' ? sql`coalesce(data_type || '(' || character_maximum_length || ')', data_type)` : sql`column_type`;
  const result =
    await (sql`select column_name as name, ${type} as type, is_nullable as nullable, column_default as dflt from information_schema.columns where table_schema = ${schema} and table_name = ${table}`.execute(
      db,
    ) as Rows<{ name: string; type: string; nullable: string; dflt: string | null }>);
  for (const row of result.rows)
    columns[row.name] = { type: String(row.type), nullable: row.nullable === 'YES', defaultValue: row.dflt === null ? null : String(row.dflt) };
  return columns;
}

async function indexesOf(db: Kysely<any>, dialect: SqlDialect, table: string): Promise<Record<string, IndexSnapshot>> {
  const indexes: Record<string, IndexSnapshot> = {};
  if (dialect === 'sqlite') {
    const list = await (sql`select * from pragma_index_list(${table})`.execute(db) as Rows<{ name: string; unique: number }>);
    for (const index of list.rows) {
      const columns = await (sql`select name from pragma_index_info(${index.name}) order by seqno`.execute(db) as Rows<{ name: string }>);
      indexes[index.name] = { columns: columns.rows.map((row) => row.name), unique: index.unique === 1 };
    }
    return indexes;
  }
  if (dialect === 'postgres') {
    const result = await (sql`
      select i.relname as name, ix.indisunique as is_unique, a.attname as column_name, k.ordinality as position
      from pg_class t
      join pg_index ix on ix.indrelid = t.oid
      join pg_class i on i.oid = ix.indexrelid
      join unnest(ix.indkey) with ordinality as k(attnum, ordinality) on true
      join pg_attribute a on a.attrelid = t.oid and a.attnum = k.attnum
      where t.relname = ${table} and t.relnamespace = (select oid from pg_namespace where nspname = current_schema())
      order by i.relname, k.ordinality`.execute(db) as Rows<{ name: string; is_unique: boolean; column_name: string }>);
    for (const row of result.rows) {
      const known = indexes[row.name];
      indexes[row.name] = { columns: [...(known?.columns ?? []), row.column_name], unique: row.is_unique };
    }
    return indexes;
  }
  const result = await (sql`
    select index_name as name, non_unique, column_name, sub_part from information_schema.statistics
    where table_schema = database() and table_name = ${table} order by index_name, seq_in_index`.execute(db) as Rows<{
    name: string;
    non_unique: number | string;
    column_name: string;
    sub_part: number | null;
  }>);
  for (const row of result.rows) {
    const known = indexes[row.name];
    const column = row.sub_part ? `${row.column_name}(${row.sub_part})` : row.column_name;
    indexes[row.name] = { columns: [...(known?.columns ?? []), column], unique: Number(row.non_unique) === 0 };
  }
  return indexes;
}

function rowKey(table: string, row: Record<string, unknown>): string {
  if ('id' in row) return String(row.id);
  if (table === 'options') return String(row.key);
  if (table === 'abilities') return `${String(row.group)}|${String(row.model)}|${String(row.channel_id)}`;
  return JSON.stringify(row);
}

/** Everything that must survive opening the database: tables, columns, indexes and rows. */
export async function snapshotSchema(db: Kysely<any>, dialect: SqlDialect, only?: readonly string[]): Promise<SchemaSnapshot> {
  const snapshot: Record<string, TableSnapshot> = {};
  for (const table of await tableNames(db, dialect)) {
    if (only && !only.includes(table)) continue;
    const columns = await columnsOf(db, dialect, table);
    const names = Object.keys(columns);
    const all = await db.selectFrom(table).selectAll().execute();
    const rows = new Map<string, Record<string, unknown>>();
    for (const row of all) {
      const projected = Object.fromEntries(names.map((name) => [name, row[name] instanceof Date ? (row[name] as Date).toISOString() : row[name]]));
      rows.set(rowKey(table, projected), projected);
    }
    snapshot[table] = { columns, indexes: await indexesOf(db, dialect, table), rows };
  }
  return snapshot;
}

export interface SchemaChange {
  readonly table: string;
  readonly what: string;
}

/**
 * What opening the database changed in what was there before: columns and indexes altered or gone,
 * rows gone, cells rewritten (`table#key.column: before → after`). New tables, columns, indexes and
 * rows are additions and are not reported.
 */
export function diffSnapshots(before: SchemaSnapshot, after: SchemaSnapshot): SchemaChange[] {
  const changes: SchemaChange[] = [];
  for (const [table, old] of Object.entries(before)) {
    const now = after[table];
    if (!now) {
      changes.push({ table, what: 'table dropped' });
      continue;
    }
    for (const [name, column] of Object.entries(old.columns)) {
      const current = now.columns[name];
      if (JSON.stringify(current) !== JSON.stringify(column))
        changes.push({ table, what: `column ${name}: ${JSON.stringify(column)} → ${JSON.stringify(current)}` });
    }
    for (const [name, index] of Object.entries(old.indexes)) {
      const current = now.indexes[name];
      if (JSON.stringify(current) !== JSON.stringify(index))
        changes.push({ table, what: `index ${name}: ${JSON.stringify(index)} → ${JSON.stringify(current)}` });
    }
    for (const [key, row] of old.rows) {
      const current = now.rows.get(key);
      if (!current) {
        changes.push({ table, what: `row ${key} gone` });
        continue;
      }
      for (const [column, value] of Object.entries(row)) {
        if (JSON.stringify(current[column]) !== JSON.stringify(value))
          changes.push({ table, what: `${table}#${key}.${column}: ${JSON.stringify(value)} → ${JSON.stringify(current[column])}` });
      }
    }
  }
  return changes;
}
