import { afterAll, beforeAll } from 'vitest';
import { migrateLogDatabase, migrateMainDatabase } from '../db/migrate.ts';
import { type DatabaseHandle, openDatabase } from '../platform/database.ts';
import type { TestDatabase } from './test-databases.ts';

/**
 * A fresh database of `database`'s engine for one describe block: created and migrated (with the log
 * tables when `logs` is set) before its tests, closed and dropped after them. Call inside `describe`;
 * the handle it returns is there once the tests run.
 */
export function useMigratedDatabase(database: TestDatabase, options: { logs?: boolean } = {}): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    handle = await openDatabase(created.sqlDsn, created.sqlitePath);
    await migrateMainDatabase(handle.db, handle.dialect);
    if (options.logs) await migrateLogDatabase(handle.db, handle.dialect);
  });
  afterAll(async () => {
    await handle?.close();
    await drop?.();
  });
  return () => {
    if (!handle) throw new Error('the test database is opened in beforeAll');
    return handle;
  };
}
