import type { SqlDialect } from '../platform/sql-dsn.ts';

/** Reads a boolean column: PostgreSQL answers true/false, SQLite and MySQL 1/0. */
export function toBoolean(value: boolean | number | null | undefined): boolean {
  return value === true || value === 1;
}

/** Writes a boolean column in the form all three engines accept. */
export function fromBoolean(value: boolean): number {
  return value ? 1 : 0;
}

/** A timestamp for a datetime column (`deleted_at`), in the text form each engine parses. */
export function sqlTimestamp(date: Date, dialect: SqlDialect): string {
  if (dialect === 'postgres') return date.toISOString();
  return date.toISOString().replace('T', ' ').replace('Z', '');
}
