import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureRootUser } from '../../domain/bootstrap/ensure-root-user.ts';
import { RootUserRepository } from '../../domain/bootstrap/root-user.repository.ts';
import { systemClock } from '../platform/clock.ts';
import { openDatabase, type DatabaseHandle } from '../platform/database.ts';
import { createLogger } from '../platform/logger.ts';
import { forgetMigrationsFrom } from '../../testing/forget-migrations.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { existingIndexes } from './ensure-tables.ts';
import { migrateLogDatabase, migrateMainDatabase } from './migrate.ts';
import { supersededLogIndexes } from './migrations/0013-drop-superseded-log-indexes.ts';
import { rollUpGuidedLogIndexes } from './migrations/0032-drop-roll-up-guided-log-indexes.ts';
import { logTables, mainTables, sessions } from './table-definitions.ts';

const logger = createLogger('silent');
const run = promisify(execFile);

/**
 * Every column of new-api's classic (2025-04) tables (its model/*.go structs), written out rather than
 * read from our definitions: a column dropped from them, or never added, fails here.
 */
const classicColumns: Readonly<Record<string, readonly string[]>> = {
  users: [
    'id',
    'username',
    'password',
    'display_name',
    'role',
    'status',
    'email',
    'github_id',
    'oidc_id',
    'wechat_id',
    'telegram_id',
    'linux_do_id',
    'access_token',
    'quota',
    'used_quota',
    'request_count',
    'group',
    'aff_code',
    'aff_count',
    'aff_quota',
    'aff_history',
    'inviter_id',
    'setting',
    'deleted_at',
  ],
  tokens: [
    'id',
    'user_id',
    'key',
    'status',
    'name',
    'created_time',
    'accessed_time',
    'expired_time',
    'remain_quota',
    'unlimited_quota',
    'model_limits_enabled',
    'model_limits',
    'allow_ips',
    'used_quota',
    'group',
    'deleted_at',
  ],
  channels: [
    'id',
    'type',
    'key',
    'open_ai_organization',
    'test_model',
    'status',
    'name',
    'weight',
    'created_time',
    'test_time',
    'response_time',
    'base_url',
    'other',
    'balance',
    'balance_updated_time',
    'models',
    'group',
    'used_quota',
    'model_mapping',
    'status_code_mapping',
    'priority',
    'auto_ban',
    'other_info',
    'tag',
    'setting',
    'param_override',
  ],
  abilities: ['group', 'model', 'channel_id', 'enabled', 'priority', 'weight', 'tag'],
  options: ['key', 'value'],
  redemptions: ['id', 'user_id', 'key', 'status', 'name', 'quota', 'created_time', 'redeemed_time', 'used_user_id', 'deleted_at'],
  logs: [
    'id',
    'user_id',
    'created_at',
    'type',
    'content',
    'username',
    'token_name',
    'model_name',
    'quota',
    'prompt_tokens',
    'completion_tokens',
    'use_time',
    'is_stream',
    'channel_id',
    'token_id',
    'group',
    'ip',
    'other',
  ],
  midjourneys: [
    'id',
    'code',
    'user_id',
    'action',
    'mj_id',
    'prompt',
    'prompt_en',
    'description',
    'state',
    'submit_time',
    'start_time',
    'finish_time',
    'image_url',
    'status',
    'progress',
    'fail_reason',
    'channel_id',
    'quota',
    'buttons',
    'properties',
  ],
  tasks: [
    'id',
    'created_at',
    'updated_at',
    'task_id',
    'platform',
    'user_id',
    'channel_id',
    'quota',
    'action',
    'status',
    'fail_reason',
    'submit_time',
    'start_time',
    'finish_time',
    'progress',
    'properties',
    'data',
  ],
  top_ups: ['id', 'user_id', 'amount', 'money', 'trade_no', 'create_time', 'status'],
  quota_data: ['id', 'user_id', 'username', 'model_name', 'created_at', 'token_used', 'count', 'quota'],
};

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

  it('has every classic new-api column of §1 in the real tables', async () => {
    const { first } = await open();
    await migrateMainDatabase(first.db, first.dialect);
    await migrateLogDatabase(first.db, first.dialect);
    const tables = await first.db.introspection.getTables();
    const missing = Object.entries(classicColumns).flatMap(([table, columns]) => {
      const present = new Set(tables.find((candidate) => candidate.name === table)?.columns.map((column) => column.name));
      return columns.filter((column) => !present.has(column)).map((column) => `${table}.${column}`);
    });
    expect(missing).toEqual([]);
  });

  it('adds users.oidc_id and the tasks start_time index to a database migrated before 0014', async () => {
    const { first } = await open();
    await migrateMainDatabase(first.db, first.dialect);
    // Undo what 0014 brings (0001 creates it too on a fresh database), as on one migrated before it.
    const dropIndex = (name: string, table: string) =>
      (first.dialect === 'mysql' ? first.db.schema.dropIndex(name).on(table) : first.db.schema.dropIndex(name)).execute();
    await dropIndex('idx_users_oidc_id', 'users');
    await dropIndex('idx_tasks_start_time', 'tasks');
    await first.db.schema.alterTable('users').dropColumn('oidc_id').execute();
    await forgetMigrationsFrom(first.db, 'switchboard_migration', '0014');
    await first.db
      .insertInto('users')
      .values({ username: 'before', password: 'x', setting: '' } as never)
      .execute();

    await migrateMainDatabase(first.db, first.dialect);
    const row = await sql<{ username: string; oidc_id: string }>`select username, oidc_id from users where username = 'before'`.execute(first.db);
    expect(row.rows[0]).toEqual({ username: 'before', oidc_id: '' });
    expect((await existingIndexes(first.db, 'users', first.dialect)).has('idx_users_oidc_id')).toBe(true);
    expect((await existingIndexes(first.db, 'tasks', first.dialect)).has('idx_tasks_start_time')).toBe(true);
  });

  it('completes an older database without touching its rows or extra columns', async () => {
    const { first } = await open();
    // A minimal one-api era users table with a column we do not know.
    await sql`create table users (id integer primary key, username varchar(191), password text not null, quota bigint, legacy_note varchar(20))`.execute(
      first.db,
    );
    await sql`insert into users (id, username, password, quota, legacy_note) values (7, 'old', 'x', 42, 'kept')`.execute(first.db);
    await migrateMainDatabase(first.db, first.dialect);
    const row = await sql<{ username: string; quota: number; legacy_note: string; group: string }>`select * from users where id = 7`.execute(first.db);
    expect(row.rows[0]).toMatchObject({ username: 'old', quota: 42, legacy_note: 'kept', group: 'default' });
    // The existing user means no root is created.
    await ensureRootUser(new RootUserRepository(first.db), { initialPassword: '', clock: systemClock, logger });
    const count = await sql<{ n: number }>`select count(*) as n from users`.execute(first.db);
    expect(Number(count.rows[0]?.n)).toBe(1);
  });

  it('creates root once and honours INITIAL_ROOT_PASSWORD', async () => {
    const { first } = await open();
    await migrateMainDatabase(first.db, first.dialect);
    await ensureRootUser(new RootUserRepository(first.db), { initialPassword: 'chosen-secret', clock: systemClock, logger });
    await ensureRootUser(new RootUserRepository(first.db), { initialPassword: 'other-secret', clock: systemClock, logger });
    const rows = await first.db.selectFrom('users').select(['username', 'password', 'role']).execute();
    expect(rows).toHaveLength(1);
    const { verifyPassword } = await import('../platform/password-hasher.ts');
    expect(await verifyPassword('chosen-secret', rows[0]?.password ?? '')).toBe(true);
  });
  it('adds the hourly channel and group totals to a log database migrated before 0015', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    const columns = async () =>
      (await first.db.introspection.getTables())
        .find((table) => table.name === 'switchboard_log_hourly_channel_group')
        ?.columns.map((column) => column.name)
        .sort();
    const expectTable = async () => {
      expect(await columns()).toEqual(['bucket', 'channel_id', 'count', 'group', 'quota', 'type']);
      const indexes = await existingIndexes(first.db, 'switchboard_log_hourly_channel_group', first.dialect);
      // The covering ones that replaced 0015's narrow indexes (0035).
      for (const name of ['idx_log_hourly_channel_group_by_channel', 'idx_log_hourly_channel_group_by_channel_group'])
        expect(indexes.has(name), name).toBe(true);
    };
    await expectTable();
    // As on a database migrated before 0015: the table and the migration's row are not there yet.
    await first.db.schema.dropTable('switchboard_log_hourly_channel_group').execute();
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0015');
    expect(await columns()).toBeUndefined();
    await migrateLogDatabase(first.db, first.dialect);
    await expectTable();
  });

  it('fills the per-type and per-group roll-ups (0033) from the finer ones they are kept with, once', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    // As on a database migrated before 0033 whose roll-ups counted some logs already.
    await first.db.schema.dropTable('switchboard_log_hourly_type').execute();
    await first.db.schema.dropTable('switchboard_log_hourly_group').execute();
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0033');
    await first.db
      .insertInto('switchboard_log_hourly')
      .values([
        { bucket: 3600, type: 2, model_name: 'gpt-4o', count: 3, quota: 30 },
        { bucket: 3600, type: 2, model_name: 'o3', count: 4, quota: 40 },
        { bucket: 3600, type: 5, model_name: 'o3', count: 1, quota: 0 },
        { bucket: 7200, type: 2, model_name: 'o3', count: 2, quota: 20 },
      ])
      .execute();
    await first.db
      .insertInto('switchboard_log_hourly_channel_group')
      .values([
        { bucket: 3600, type: 2, channel_id: 1, group: 'default', count: 3, quota: 30 },
        { bucket: 3600, type: 2, channel_id: 2, group: 'default', count: 4, quota: 40 },
        { bucket: 3600, type: 2, channel_id: 2, group: 'vip', count: 1, quota: 5 },
      ])
      .execute();
    const expectFilled = async () => {
      const types = await first.db.selectFrom('switchboard_log_hourly_type').selectAll().orderBy('bucket').orderBy('type').execute();
      expect(types.map((row) => [Number(row.bucket), Number(row.type), Number(row.count), Number(row.quota)])).toEqual([
        [3600, 2, 7, 70],
        [3600, 5, 1, 0],
        [7200, 2, 2, 20],
      ]);
      const groups = await first.db.selectFrom('switchboard_log_hourly_group').selectAll().orderBy('group').execute();
      expect(groups.map((row) => [Number(row.bucket), Number(row.type), row.group, Number(row.count), Number(row.quota)])).toEqual([
        [3600, 2, 'default', 7, 70],
        [3600, 2, 'vip', 1, 5],
      ]);
    };
    await migrateLogDatabase(first.db, first.dialect);
    await expectFilled();
    // Run again (as after a crash before the migration was recorded): nothing is counted twice.
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0033');
    await migrateLogDatabase(first.db, first.dialect);
    await expectFilled();
    expect((await existingIndexes(first.db, 'switchboard_log_hourly_group', first.dialect)).has('idx_log_hourly_group_by_group')).toBe(true);
  });

  it('replaces the (user_id, created_at) log index with the covering one (0034), and a log database has five of ours', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    const ours = async () => [...(await existingIndexes(first.db, 'logs', first.dialect))].filter((name) => name.startsWith('idx_logs_')).sort();
    const five = [
      'idx_logs_created_at_id',
      'idx_logs_request_id',
      'idx_logs_token_name_created_at_id',
      'idx_logs_type_created_at',
      'idx_logs_user_id_created_at_covering',
    ];
    expect(await ours()).toEqual(five);
    // As on a database migrated before 0034: 0001 made (user_id, created_at), with a log in it.
    await sql`insert into logs (user_id, created_at, type, model_name, quota) values (7, 100, 2, 'o3', 5)`.execute(first.db);
    await first.db.schema
      .dropIndex('idx_logs_user_id_created_at_covering')
      .$call((drop) => (first.dialect === 'mysql' ? drop.on('logs') : drop))
      .execute();
    await first.db.schema.createIndex('idx_logs_user_id_created_at').on('logs').columns(['user_id', 'created_at']).execute();
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0034');
    await migrateLogDatabase(first.db, first.dialect);
    expect(await ours()).toEqual(five);
    const found = await first.db.selectFrom('logs').select('quota').where('user_id', '=', 7).where('model_name', '=', 'o3').execute();
    expect(found.map((row) => Number(row.quota))).toEqual([5]);
  });

  it('drops only the log indexes of our own that later ones replaced', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    // A database migrated before 0013 still has them; a new-api database has indexes of its own.
    const index = (name: string, columns: string[]) => first.db.schema.createIndex(name).on('logs').columns(columns).execute();
    for (const name of supersededLogIndexes) await index(name, [name === 'idx_logs_group_id' ? 'group' : name.slice('idx_logs_'.length, -'_id'.length), 'id']);
    await index('index_username_model_name', ['model_name', 'username']);
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0013');

    await migrateLogDatabase(first.db, first.dialect);
    const present = await existingIndexes(first.db, 'logs', first.dialect);
    for (const name of supersededLogIndexes) expect(present.has(name), name).toBe(false);
    for (const name of ['index_username_model_name', 'idx_logs_created_at_id', 'idx_logs_user_id_created_at_covering', 'idx_logs_token_name_created_at_id'])
      expect(present.has(name), name).toBe(true);
  });

  it('drops the log indexes the roll-up-guided pages replaced (0032), twice without harm, and keeps the rest', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    let present = await existingIndexes(first.db, 'logs', first.dialect);
    for (const name of rollUpGuidedLogIndexes) expect(present.has(name), name).toBe(false);
    // As on a database migrated before 0032 (0012 created them), with a new-api index beside them.
    const byTime = (column: string) => ['username', 'model_name', 'channel_id', 'group'].find((name) => column === `idx_logs_${name}_created_at_id`);
    for (const name of rollUpGuidedLogIndexes)
      await first.db.schema
        .createIndex(name)
        .on('logs')
        .columns([byTime(name) ?? 'id', 'created_at', 'id'])
        .execute();
    await first.db.schema.createIndex('index_username_model_name').on('logs').columns(['model_name', 'username']).execute();
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0032');
    await migrateLogDatabase(first.db, first.dialect);
    present = await existingIndexes(first.db, 'logs', first.dialect);
    for (const name of rollUpGuidedLogIndexes) expect(present.has(name), name).toBe(false);
    for (const name of [
      'index_username_model_name',
      'idx_logs_created_at_id',
      'idx_logs_user_id_created_at_covering',
      'idx_logs_type_created_at',
      'idx_logs_request_id',
      'idx_logs_token_name_created_at_id',
    ])
      expect(present.has(name), name).toBe(true);
    // Idempotent: once more over a database without them changes nothing and does not fail.
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0032');
    await migrateLogDatabase(first.db, first.dialect);
    expect(await existingIndexes(first.db, 'logs', first.dialect)).toEqual(present);
  });
});

describe.each(testDatabases().filter((database) => database.dialect === 'mysql'))('migration locks on $dialect', (database) => {
  it("migrates a database while another database's migration holds the server", async () => {
    const other = await database.create();
    const fresh = await database.create();
    const holder = await openDatabase(other.sqlDsn, other.sqlitePath);
    const migrated = await openDatabase(fresh.sqlDsn, fresh.sqlitePath);
    try {
      // The lock Kysely's own MySQL adapter takes for any database's migration: one name per server.
      await holder.db.connection().execute(async (connection) => {
        await sql`select get_lock('ea586330-2c93-47c8-908d-981d9d270f9d', 10)`.execute(connection);
        try {
          await migrateMainDatabase(migrated.db, migrated.dialect);
          await migrateLogDatabase(migrated.db, migrated.dialect);
        } finally {
          await sql`select release_lock('ea586330-2c93-47c8-908d-981d9d270f9d')`.execute(connection);
        }
      });
      const tables = await migrated.db.introspection.getTables();
      expect(tables.map((table) => table.name)).toContain('users');
    } finally {
      await migrated.close();
      await holder.close();
      await fresh.drop();
      await other.drop();
    }
  }, 60_000);
});

/**
 * A start on an up-to-date database takes no migration lock: it does not wait for another instance
 * that is migrating (or stuck holding the lock). The lock is a session lock on PostgreSQL and MySQL
 * (an advisory lock, GET_LOCK); SQLite's is the file's write transaction, which blocks the thread, so
 * it is not part of this suite.
 */
describe.each(testDatabases().filter((database) => database.dialect !== 'sqlite'))('migration lock on $dialect', (database) => {
  it('starts on an up-to-date database while another instance holds its migration lock', async () => {
    const created = await database.createMigrated();
    const holder = await openDatabase(created.sqlDsn, created.sqlitePath);
    const starting = await openDatabase(created.sqlDsn, created.sqlitePath);
    const release = await holdMigrationLock(holder);
    try {
      await migrateMainDatabase(starting.db, starting.dialect);
      await migrateLogDatabase(starting.db, starting.dialect);
    } finally {
      await release();
      await starting.close();
      await holder.close();
      await created.drop();
    }
  }, 60_000);
});

/** Takes the lock the migrator of this database waits for, on a connection of its own, as a migration in another process would. */
// platform/database.ts's per-database MySQL lock name for the main migrations.
const mysqlMigrationLock = sql`concat('switchboard-migrate-', sha1(concat(database(), '.', 'switchboard_migration_lock')))`;

async function holdMigrationLock(handle: DatabaseHandle): Promise<() => Promise<void>> {
  const postgres = handle.dialect === 'postgres';
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken!: () => void;
  const held = new Promise<void>((resolve) => (taken = resolve));
  // Session locks belong to their connection: it stays checked out until the lock is let go.
  const holding = handle.db.connection().execute(async (connection) => {
    if (postgres) await sql`select pg_advisory_lock(3853314791062309107)`.execute(connection);
    else await sql`select get_lock(${mysqlMigrationLock}, 60)`.execute(connection);
    taken();
    await released;
    if (postgres) await sql`select pg_advisory_unlock(3853314791062309107)`.execute(connection);
    else await sql`select release_lock(${mysqlMigrationLock})`.execute(connection);
  });
  await Promise.race([held, holding]);
  return async () => {
    release();
    await holding;
  };
}
