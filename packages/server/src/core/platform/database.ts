import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  type MigrationLockOptions,
  MysqlAdapter,
  MysqlDialect,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
  sql,
} from 'kysely';
import type { Database } from '../db/schema.ts';
import { type BatchWriter, SqliteBatchWorker } from './sqlite-batch-worker.ts';
import { parseSqlDsn, redactDsn, type SqlDialect } from './sql-dsn.ts';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: SqlDialect;
  /**
   * SQLite only: batched writes (relay logs and quota) committed off the event loop, in a thread of
   * this process or, in a cluster worker, in the primary's one writer for the file.
   */
  readonly batchWorker?: BatchWriter;
  close(): Promise<void>;
}

/** Start-up could not open the database; `cause` is the driver's error (see database-reachability.ts). */
export class DatabaseConnectError extends Error {}

/**
 * A pool's or connection's 'error' event: the connection is already lost and dropped by its pool; the
 * statement that was using it, if any, fails with the error and its caller decides (the quota
 * flusher keeps the batch and writes it again later).
 */
function ignoreLostConnection(): void {}

// PostgreSQL returns BIGINT (int8) and NUMERIC as strings; every quota column is BIGINT and fits a double.
function numericPgTypes(pg: typeof import('pg').default) {
  return {
    getTypeParser(oid: number, format?: 'text' | 'binary') {
      if (oid === 20 || oid === 1700) return (value: string) => Number(value);
      return pg.types.getTypeParser(oid, format);
    },
  };
}

/**
 * Kysely takes no migration lock on SQLite. Here the lock is an IMMEDIATE transaction around the
 * whole run (the migrator is told not to open its own): a second process starting at the same time
 * waits on the busy timeout, then reads the migrations as done.
 */
class LockingSqliteAdapter extends SqliteAdapter {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  override async acquireMigrationLock(db: Kysely<any>, _options: MigrationLockOptions): Promise<void> {
    await sql`begin immediate`.execute(db);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  override async releaseMigrationLock(db: Kysely<any>, _options: MigrationLockOptions): Promise<void> {
    await sql`commit`.execute(db);
  }
}

/**
 * Every transaction on SQLite begins IMMEDIATE: it takes the write lock first, waiting on the busy
 * timeout while another connection writes. A deferred `begin` takes it at the first write instead,
 * and when another connection (the batch writer's thread, another worker's) committed after the
 * transaction's first read, SQLite refuses that write at once with SQLITE_BUSY_SNAPSHOT, busy timeout
 * or not: a console write that reads before it writes (a channel delete, a redemption) failed with a
 * 500 while relay traffic was being logged.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class LockingSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }

  override createAdapter(): DialectAdapter {
    return new LockingSqliteAdapter();
  }
}

/**
 * Kysely's MySQL migration lock is one GET_LOCK name for the whole server, so the migrations of every
 * database on a MySQL/MariaDB server wait for each other (two deployments on one server; test files
 * migrating databases of their own, where a start-up then ran past its bound). Here the name is the
 * database's and the migration table's: instances of one database still migrate one at a time.
 * (PostgreSQL's advisory locks are already per database.)
 */
class PerDatabaseMysqlAdapter extends MysqlAdapter {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  override async acquireMigrationLock(db: Kysely<any>, options: MigrationLockOptions): Promise<void> {
    await sql`select get_lock(${migrationLockName(options)}, ${60 * 60})`.execute(db);
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kysely's own signature
  override async releaseMigrationLock(db: Kysely<any>, options: MigrationLockOptions): Promise<void> {
    await sql`select release_lock(${migrationLockName(options)})`.execute(db);
  }
}

/** At most 64 characters (MySQL's limit for lock names), whatever the database's name. */
function migrationLockName(options: MigrationLockOptions) {
  return sql<string>`concat('switchboard-migrate-', sha1(concat(database(), '.', ${options.lockTable})))`;
}

class PerDatabaseMysqlDialect extends MysqlDialect {
  override createAdapter(): DialectAdapter {
    return new PerDatabaseMysqlAdapter();
  }
}

/** Who commits a SQLite file's batched writes: a thread of this process unless the caller names another. */
export type BatchWriterFor = (path: string) => BatchWriter;

/**
 * Opens the database named by a DSN and checks it answers, so a bad DSN fails start-up in one line.
 * `batchWriterFor` is passed in by the composition (open-dependencies.ts): a cluster worker hands its
 * SQLite writes to the primary's one writer, and platform/ does not know the cluster link.
 */
export async function openDatabase(
  dsn: string,
  sqlitePath: string,
  variable = 'SQL_DSN',
  batchWriterFor: BatchWriterFor = (path) => new SqliteBatchWorker(path),
): Promise<DatabaseHandle> {
  const target = parseSqlDsn(dsn, sqlitePath);
  let handle: DatabaseHandle;
  // Only the driver in use is loaded: each of the others would cost 10–25 MB of memory for nothing.
  if (target.dialect === 'sqlite') {
    const { default: SqliteDatabase } = await import('better-sqlite3');
    const path = resolve(target.path);
    mkdirSync(dirname(path), { recursive: true });
    const sqlite = new SqliteDatabase(path);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 30000');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<Database>({ dialect: new LockingSqliteDialect({ database: sqlite }) });
    const batchWorker = batchWriterFor(path);
    handle = {
      db,
      dialect: 'sqlite',
      batchWorker,
      close: async () => {
        await batchWorker.close();
        await db.destroy();
      },
    };
  } else if (target.dialect === 'postgres') {
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({ connectionString: target.connectionString, max: 20, types: numericPgTypes(pg), connectionTimeoutMillis: 10_000 });
    // A connection lost (a restart, an administrator's pg_terminate_backend, a cut network) must not
    // crash the process: the query in flight fails, the pool drops the client and connects again. The
    // pool listens to its idle clients only; a checked-out client between two statements of a
    // transaction emits its 'error' with nobody listening unless each client has a listener of its own.
    pool.on('error', ignoreLostConnection);
    pool.on('connect', (client) => client.on('error', ignoreLostConnection));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    handle = { db, dialect: 'postgres', close: () => db.destroy() };
  } else {
    const { createPool } = await import('mysql2');
    const pool = createPool({ uri: target.uri, connectionLimit: 20, supportBigNumbers: true, charset: 'utf8mb4', connectTimeout: 10_000, timezone: 'Z' });
    // As for PostgreSQL: a pooled connection listens for its first error only (to leave the pool); a
    // later one (a write on the closed socket) would have nobody listening and crash the process.
    pool.on('connection', (connection) => connection.on('error', ignoreLostConnection));
    const db = new Kysely<Database>({ dialect: new PerDatabaseMysqlDialect({ pool }) });
    handle = { db, dialect: 'mysql', close: () => db.destroy() };
  }
  try {
    await sql`select 1`.execute(handle.db);
  } catch (error) {
    await handle.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message || error.constructor.name : String(error);
    throw new DatabaseConnectError(`Cannot open the database in ${variable} (${redactDsn(dsn) || sqlitePath}): ${reason}`, { cause: error });
  }
  return handle;
}
