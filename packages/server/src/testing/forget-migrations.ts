import type { DatabaseHandle } from '../core/platform/database.ts';

/**
 * Makes a migrated database look as if it had been migrated before `first`: the migrator keeps its
 * records in order, so that one and every later one go (their tables, created if missing, stay).
 */
export async function forgetMigrationsFrom(
  db: DatabaseHandle['db'],
  table: 'switchboard_migration' | 'switchboard_log_migration',
  first: string,
): Promise<void> {
  await db
    .deleteFrom(table as never)
    .where('name' as never, '>=', first as never)
    .execute();
}
