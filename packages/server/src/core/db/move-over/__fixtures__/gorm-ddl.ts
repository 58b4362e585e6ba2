import type { SqlDialect } from '../../../platform/sql-dsn.ts';

/**
 * GORM's `AutoMigrate` DDL, followed rule by rule for the three engines new-api and one-api run on,
 * so a fixture database has the column types a real one has (gorm v1.25 with the mysql, postgres and
 * glebarez/sqlite drivers):
 * - Go `int`/`int64` → BIGINT on MySQL and PostgreSQL (`integer` on SQLite) unless a `type:` tag says
 *   otherwise; `uint` → `bigint unsigned` on MySQL; `float64` → `double` (MySQL), `decimal`
 *   (PostgreSQL), `real` (SQLite); `bool` → `boolean` (tinyint(1) on MySQL), `numeric` on SQLite;
 *   `gorm.DeletedAt` → `datetime(3)` / `timestamptz` / `datetime`.
 * - An untyped string is `longtext` on MySQL, but `varchar(191)` when it is indexed, unique, a primary
 *   key or has a default; `text` on PostgreSQL and SQLite; `size:n` makes it `varchar(n)`.
 * - The auto-increment `id` is `bigint AUTO_INCREMENT`, `bigserial`, `integer PRIMARY KEY AUTOINCREMENT`.
 * - `index` → `idx_<table>_<column>`, `uniqueIndex` → the same name, unique; `unique` is a column
 *   constraint; named (composite) indexes keep their names and priority order.
 */
export type GoType = 'int' | 'int64' | 'uint' | 'string' | 'bool' | 'float64' | 'deletedAt';

export interface GormField {
  readonly column: string;
  readonly go: GoType;
  /** The `type:` tag, used verbatim on every engine (GORM does the same). */
  readonly type?: string;
  readonly size?: number;
  /** The `default:` tag as SQL. */
  readonly default?: string;
  readonly notNull?: boolean;
  readonly unique?: boolean;
  readonly uniqueIndex?: boolean;
  readonly index?: boolean;
  readonly primaryKey?: boolean;
  /** Integer primary keys are auto-increment unless `autoIncrement:false` says otherwise. */
  readonly autoIncrement?: boolean;
}

export interface GormIndex {
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
}

export interface GormModel {
  readonly table: string;
  readonly fields: readonly GormField[];
  /** Named indexes (`index:idx_created_at_id,priority:2`), columns in priority order. */
  readonly indexes?: readonly GormIndex[];
}

const isInteger = (field: GormField) => field.go === 'int' || field.go === 'int64' || field.go === 'uint';
const isAutoIncrement = (field: GormField) => field.primaryKey === true && isInteger(field) && field.autoIncrement !== false;

function quote(name: string, dialect: SqlDialect): string {
  return dialect === 'postgres' ? `"${name}"` : `\`${name}\``;
}

function dataType(field: GormField, dialect: SqlDialect): string {
  if (isAutoIncrement(field)) {
    if (dialect === 'sqlite') return 'integer PRIMARY KEY AUTOINCREMENT';
    if (dialect === 'postgres') return 'bigserial';
    return field.go === 'uint' ? 'bigint unsigned AUTO_INCREMENT' : 'bigint AUTO_INCREMENT';
  }
  if (field.type) return field.type;
  switch (field.go) {
    case 'bool':
      return dialect === 'sqlite' ? 'numeric' : 'boolean';
    case 'int':
    case 'int64':
      return dialect === 'sqlite' ? 'integer' : 'bigint';
    case 'uint':
      return dialect === 'sqlite' ? 'integer' : dialect === 'mysql' ? 'bigint unsigned' : 'bigint';
    case 'float64':
      return dialect === 'sqlite' ? 'real' : dialect === 'mysql' ? 'double' : 'decimal';
    case 'deletedAt':
      return dialect === 'sqlite' ? 'datetime' : dialect === 'mysql' ? 'datetime(3)' : 'timestamptz';
    case 'string': {
      if (dialect === 'sqlite') return 'text';
      if (field.size) return `varchar(${field.size})`;
      if (dialect === 'postgres') return 'text';
      const keyed = field.primaryKey || field.index || field.uniqueIndex || field.unique || field.default !== undefined;
      return keyed ? 'varchar(191)' : 'longtext';
    }
  }
}

function columnDefinition(field: GormField, dialect: SqlDialect): string {
  let definition = `${quote(field.column, dialect)} ${dataType(field, dialect)}`;
  if (field.notNull) definition += ' NOT NULL';
  if (field.unique) definition += ' UNIQUE';
  if (field.default !== undefined && !isAutoIncrement(field)) definition += ` DEFAULT ${field.default}`;
  return definition;
}

/** The statements AutoMigrate runs for these models on an empty database, in order. */
export function gormDdl(models: readonly GormModel[], dialect: SqlDialect): string[] {
  const statements: string[] = [];
  for (const model of models) {
    const columns = model.fields.map((field) => columnDefinition(field, dialect));
    const keys = model.fields.filter((field) => field.primaryKey);
    const keyInType = dialect === 'sqlite' && keys.some(isAutoIncrement);
    if (keys.length > 0 && !keyInType) columns.push(`PRIMARY KEY (${keys.map((field) => quote(field.column, dialect)).join(',')})`);
    statements.push(`CREATE TABLE ${quote(model.table, dialect)} (${columns.join(',')})`);
    const indexes: GormIndex[] = [
      ...model.fields
        .filter((field) => field.index || field.uniqueIndex)
        .map((field) => ({ name: `idx_${model.table}_${field.column}`, columns: [field.column], unique: field.uniqueIndex === true })),
      ...(model.indexes ?? []),
    ];
    for (const index of indexes) {
      const columnsSql = index.columns.map((column) => quote(column, dialect)).join(',');
      statements.push(`CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX ${quote(index.name, dialect)} ON ${quote(model.table, dialect)}(${columnsSql})`);
    }
  }
  return statements;
}
