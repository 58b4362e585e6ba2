import { afterAll, beforeAll } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../core/platform/database.ts';
import type { TestDatabase } from './test-databases.ts';

/**
 * A migrated database of `database`'s engine for one describe block (a clone of the run's template:
 * main and log tables), opened before its tests, closed and dropped after them. Call inside
 * `describe`; the handle it returns is there once the tests run.
 */
export function useMigratedDatabase(database: TestDatabase): () => DatabaseHandle {
  let handle: DatabaseHandle | undefined;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const created = await database.createMigrated();
    drop = created.drop;
    handle = await openDatabase(created.sqlDsn, created.sqlitePath);
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
