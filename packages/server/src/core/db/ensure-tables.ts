import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from '../platform/sql-dsn.ts';
import type { ColumnDefinition, ColumnType, TableDefinition } from './table-definitions.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- the schema builder works on untyped tables here */
type AnyDatabase = Kysely<any>;

function columnSqlType(type: ColumnType, dialect: SqlDialect): string {
  switch (type) {
    case 'id':
      return dialect === 'sqlite' ? 'integer' : 'bigint';
    case 'bigint':
      return dialect === 'sqlite' ? 'integer' : 'bigint';
    case 'int':
      return 'integer';
    case 'double':
      return dialect === 'postgres' ? 'double precision' : dialect === 'sqlite' ? 'real' : 'double';
    case 'boolean':
      return dialect === 'mysql' ? 'tinyint(1)' : dialect === 'sqlite' ? 'numeric' : 'boolean';
    case 'text':
      return dialect === 'mysql' ? 'longtext' : 'text';
    case 'timestamp':
      return dialect === 'postgres' ? 'timestamptz' : dialect === 'mysql' ? 'datetime(3)' : 'datetime';
    default:
      return type;
  }
}

function defaultLiteral(column: ColumnDefinition, dialect: SqlDialect) {
  const value = column.defaultValue;
  if (typeof value === 'boolean') return dialect === 'postgres' ? sql.lit(value) : sql.lit(value ? 1 : 0);
  return sql.lit(value);
}

function addColumn(builder: any, column: ColumnDefinition, dialect: SqlDialect, inCreate: boolean) {
  return builder.addColumn(column.name, sql.raw(columnSqlType(column.type, dialect)), (col: any) => {
    let next = col;
    if (column.type === 'id' && inCreate) {
      next = next.primaryKey();
      next = dialect === 'postgres' ? next.generatedByDefaultAsIdentity() : dialect === 'mysql' ? next.autoIncrement() : next.autoIncrement();
    }
    if (column.notNull) next = next.notNull();
    if (column.defaultValue !== undefined) next = next.defaultTo(defaultLiteral(column, dialect));
    return next;
  });
}

async function existingColumns(db: AnyDatabase, table: string): Promise<Set<string> | undefined> {
  const tables = await db.introspection.getTables();
  const found = tables.find((candidate) => candidate.name === table);
  return found ? new Set(found.columns.map((column) => column.name)) : undefined;
}

export async function existingIndexes(db: AnyDatabase, table: string, dialect: SqlDialect): Promise<Set<string>> {
  if (dialect === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = ${table}`.execute(db);
    return new Set(rows.rows.map((row) => row.name));
  }
  if (dialect === 'postgres') {
    const rows = await sql<{ indexname: string }>`select indexname from pg_indexes where tablename = ${table} and schemaname = current_schema()`.execute(db);
    return new Set(rows.rows.map((row) => row.indexname));
  }
  const rows = await sql<{
    INDEX_NAME: string;
  }>`select distinct INDEX_NAME from information_schema.statistics where table_schema = database() and table_name = ${table}`.execute(db);
  return new Set(rows.rows.map((row) => row.INDEX_NAME));
}

/**
 * Creates a table that is missing, adds columns and indexes that are missing, and leaves everything
 * else alone: a new-api database keeps its data and its extra columns.
 */
export async function ensureTable(db: AnyDatabase, table: TableDefinition, dialect: SqlDialect): Promise<void> {
  const columns = await existingColumns(db, table.name);
  if (!columns) {
    let create: any = db.schema.createTable(table.name).ifNotExists();
    for (const column of table.columns) create = addColumn(create, column, dialect, true);
    if (table.primaryKey) create = create.addPrimaryKeyConstraint(`pk_${table.name}`, [...table.primaryKey]);
    if (dialect === 'mysql') create = create.modifyEnd(sql`default charset = utf8mb4`);
    await create.execute();
  } else {
    const missing = table.columns.filter((column) => !columns.has(column.name) && column.type !== 'id');
    if (dialect === 'sqlite') {
      for (const column of missing) await addColumn(db.schema.alterTable(table.name), column, dialect, false).execute();
    } else if (missing.length > 0) {
      // One ALTER for all of them: MySQL may rebuild the table for each, and a new-api `logs` is big.
      let alter: any = db.schema.alterTable(table.name);
      for (const column of missing) alter = addColumn(alter, column, dialect, false);
      await alter.execute();
    }
  }
  const indexes = await existingIndexes(db, table.name, dialect);
  const textColumns = dialect === 'mysql' ? await mysqlTextColumns(db, table.name) : new Set<string>();
  for (const index of table.indexes) {
    if (indexes.has(index.name)) continue;
    if (index.include && dialect === 'postgres') {
      await createIndexWithInclude(db, table.name, index.name, index.columns, index.include, index.unique === true);
      continue;
    }
    const columnsOf = [...index.columns, ...(index.include ?? [])];
    let create: any = db.schema.createIndex(index.name).on(table.name);
    // GORM leaves an unindexed string `longtext` on MySQL (new-api's classic top_ups.trade_no), which
    // MySQL indexes only by a prefix; 191 characters is GORM's own indexed-string length.
    create = columnsOf.some((column) => textColumns.has(column))
      ? create.expression(sql.join(columnsOf.map((column) => (textColumns.has(column) ? sql`${sql.ref(column)}(191)` : sql.ref(column)))))
      : create.columns(columnsOf);
    if (index.unique) create = create.unique();
    await create.execute();
  }
}

/** PostgreSQL's covering index (Kysely's index builder has no INCLUDE clause). */
async function createIndexWithInclude(db: AnyDatabase, table: string, name: string, columns: readonly string[], include: readonly string[], unique: boolean) {
  const refs = (names: readonly string[]) => sql.join(names.map((column) => sql.ref(column)));
  await sql`create ${sql.raw(unique ? 'unique index' : 'index')} ${sql.ref(name)} on ${sql.table(table)} (${refs(columns)}) include (${refs(include)})`.execute(
    db,
  );
}

/** Columns of a MySQL table that only a prefix index can cover (TEXT and BLOB types). */
async function mysqlTextColumns(db: AnyDatabase, table: string): Promise<Set<string>> {
  const rows = await sql<{
    COLUMN_NAME: string;
  }>`select COLUMN_NAME from information_schema.columns where table_schema = database() and table_name = ${table} and data_type in ('text', 'mediumtext', 'longtext', 'tinytext', 'blob', 'mediumblob', 'longblob')`.execute(
    db,
  );
  return new Set(rows.rows.map((row) => row.COLUMN_NAME));
}
