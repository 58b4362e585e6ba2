import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

// Loaded on the first lock only, and synchronously (a lock is taken inside synchronous start-up steps).
const requireModule = createRequire(import.meta.url);
let SqliteDatabase: typeof BetterSqlite3 | undefined;

/**
 * An exclusive lock on a file that the kernel releases when its process ends, however it ends (a
 * kill -9 included), so a lock left behind always means a live owner. Node has no flock; SQLite's
 * POSIX advisory locks are exactly this, across processes and containers on one host (and on NFS
 * with lock support), and across connections of one process too. An open EXCLUSIVE transaction on
 * an empty file holds the lock and writes nothing.
 */
export class ExclusiveFileLock {
  private readonly connection: BetterSqlite3.Database;

  private constructor(connection: BetterSqlite3.Database) {
    this.connection = connection;
  }

  /** Takes the lock on `path` (created when missing), or returns undefined when another owner holds it. */
  static tryAcquire(path: string): ExclusiveFileLock | undefined {
    SqliteDatabase ??= requireModule('better-sqlite3') as typeof BetterSqlite3;
    const connection = new SqliteDatabase(path, { timeout: 0 });
    try {
      connection.exec('begin exclusive');
      return new ExclusiveFileLock(connection);
    } catch (error) {
      connection.close();
      if ((error as { code?: string }).code === 'SQLITE_BUSY') return undefined;
      throw error;
    }
  }

  release(): void {
    if (this.connection.open) this.connection.close();
  }
}
