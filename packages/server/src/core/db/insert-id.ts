import type { InsertQueryBuilder, InsertResult } from 'kysely';
import type { SqlDialect } from '../platform/sql-dsn.ts';

/**
 * Runs an insert into a table with an `id` column and returns the new id: PostgreSQL needs
 * RETURNING, while MySQL has none and SQLite and MySQL report `insertId`.
 */
export async function insertReturningId<DB, TB extends keyof DB & string>(
  query: InsertQueryBuilder<DB, TB, InsertResult>,
  dialect: SqlDialect,
): Promise<number> {
  if (dialect === 'postgres') {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the `id` column is checked by the caller's table
    const row = (await (query as InsertQueryBuilder<DB, TB, any>).returning('id' as any).executeTakeFirstOrThrow()) as { id: number };
    return Number(row.id);
  }
  const result = await query.executeTakeFirstOrThrow();
  return Number(result.insertId);
}
