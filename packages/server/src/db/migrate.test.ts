import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRootUser } from '../bootstrap/ensure-root-user.ts';
import { systemClock } from '../platform/clock.ts';
import { openDatabase, type DatabaseHandle } from '../platform/database.ts';
import { createLogger } from '../platform/logger.ts';
import { testDatabases } from '../testing/test-databases.ts';
import { existingIndexes } from './ensure-tables.ts';
import { migrateLogDatabase, migrateMainDatabase } from './migrate.ts';
import { supersededLogIndexes } from './migrations/0013-drop-superseded-log-indexes.ts';
import { logTables, mainTables, sessions } from './table-definitions.ts';

const logger = createLogger('silent');
const run = promisify(execFile);

async function migrateInChildProcess(sqlDsn: string, sqlitePath: string): Promise<void> {
  const here = (name: string) => new URL(name, import.meta.url).href;
  const script = `
    const { openDatabase } = await import(${JSON.stringify(here('../platform/database.ts'))});
    const { migrateMainDatabase, migrateLogDatabase } = await import(${JSON.stringify(here('./migrate.ts'))});
    const handle = await openDatabase(${JSON.stringify(sqlDsn)}, ${JSON.stringify(sqlitePath)});
    await migrateMainDatabase(handle.db, handle.dialect);
    await migrateLogDatabase(handle.db, handle.dialect);
    await handle.close();`;
  await run(process.execPath, ['--input-type=module', '-e', script]);
}

describe.each(testDatabases())('migrations on $dialect', (database) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(): Promise<{ first: DatabaseHandle; second: DatabaseHandle; sqlDsn: string; sqlitePath: string }> {
    const created = await database.create();
    const first = await openDatabase(created.sqlDsn, created.sqlitePath);
    const second = await openDatabase(created.sqlDsn, created.sqlitePath);
    cleanups.push(created.drop, second.close, first.close);
    return { first, second, sqlDsn: created.sqlDsn, sqlitePath: created.sqlitePath };
  }

  it('creates every table and column, and two instances starting at once migrate once', async () => {
    const { first, second, sqlitePath, sqlDsn } = await open();
    if (database.dialect === 'sqlite') {
      // SQLite locks block the calling thread, so two instances are two processes, as in real life.
      await Promise.all([migrateInChildProcess(sqlDsn, sqlitePath), migrateInChildProcess(sqlDsn, sqlitePath)]);
    } else {
      await Promise.all([
        migrateMainDatabase(first.db, first.dialect).then(() => migrateLogDatabase(first.db, first.dialect)),
        migrateMainDatabase(second.db, second.dialect).then(() => migrateLogDatabase(second.db, second.dialect)),
      ]);
    }
    const tables = await first.db.introspection.getTables();
    for (const table of [...mainTables, ...logTables, sessions]) {
      const found = tables.find((candidate) => candidate.name === table.name);
      expect(found, table.name).toBeDefined();
      expect(found?.columns.map((column) => column.name).sort()).toEqual(table.columns.map((column) => column.name).sort());
    }
  });

  it('completes an older database without touching its rows or extra columns', async () => {
    const { first } = await open();
    // A minimal one-api era users table with a column we do not know.
    await sql`create table users (id integer primary key, username varchar(191), password text not null, quota bigint, legacy_note varchar(20))`.execute(first.db);
    await sql`insert into users (id, username, password, quota, legacy_note) values (7, 'old', 'x', 42, 'kept')`.execute(first.db);
    await migrateMainDatabase(first.db, first.dialect);
    const row = await sql<{ username: string; quota: number; legacy_note: string; group: string }>`select * from users where id = 7`.execute(first.db);
    expect(row.rows[0]).toMatchObject({ username: 'old', quota: 42, legacy_note: 'kept', group: 'default' });
    // The existing user means no root is created.
    await ensureRootUser(first.db, { initialPassword: '', clock: systemClock, logger });
    const count = await sql<{ n: number }>`select count(*) as n from users`.execute(first.db);
    expect(Number(count.rows[0]?.n)).toBe(1);
  });

  it('creates root once and honours INITIAL_ROOT_PASSWORD', async () => {
    const { first } = await open();
    await migrateMainDatabase(first.db, first.dialect);
    await ensureRootUser(first.db, { initialPassword: 'chosen-secret', clock: systemClock, logger });
    await ensureRootUser(first.db, { initialPassword: 'other-secret', clock: systemClock, logger });
    const rows = await first.db.selectFrom('users').select(['username', 'password', 'role']).execute();
    expect(rows).toHaveLength(1);
    const { verifyPassword } = await import('../platform/password-hasher.ts');
    expect(await verifyPassword('chosen-secret', rows[0]?.password ?? '')).toBe(true);
  });
  it('drops only the log indexes of our own that later ones replaced', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    // A database migrated before 0013 still has them; a new-api database has indexes of its own.
    const index = (name: string, columns: string[]) => first.db.schema.createIndex(name).on('logs').columns(columns).execute();
    for (const name of supersededLogIndexes) await index(name, [name === 'idx_logs_group_id' ? 'group' : name.slice('idx_logs_'.length, -'_id'.length), 'id']);
    await index('index_username_model_name', ['model_name', 'username']);
    await first.db.deleteFrom('switchboard_log_migration' as never).where('name' as never, '=', '0013-drop-superseded-log-indexes' as never).execute();

    await migrateLogDatabase(first.db, first.dialect);
    const present = await existingIndexes(first.db, 'logs', first.dialect);
    for (const name of supersededLogIndexes) expect(present.has(name), name).toBe(false);
    for (const name of ['index_username_model_name', 'idx_logs_created_at_id', 'idx_logs_user_id_created_at', 'idx_logs_username_created_at_id', 'idx_logs_channel_id_created_at_id']) expect(present.has(name), name).toBe(true);
  });
});
