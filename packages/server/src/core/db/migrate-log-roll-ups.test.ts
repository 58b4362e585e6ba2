import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../platform/database.ts';
import { forgetMigrationsFrom } from '../../testing/forget-migrations.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { ensureTable, existingIndexes } from './ensure-tables.ts';
import { migrateLogDatabase } from './migrate.ts';
import { narrowRollUpIndexes } from './migrations/0035-log-roll-up-covering-indexes.ts';
import { logDailyUser } from './migrations/0036-log-daily-user.ts';

/** The log roll-ups' migrations of issue 41: covering indexes (0035), the daily per-user tables (0036) and the per-user and model one (0037). */
describe.each(testDatabases())('log roll-up migrations on $dialect', (database) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function open(): Promise<{ first: DatabaseHandle }> {
    const created = await database.create();
    const first = await openDatabase(created.sqlDsn, created.sqlitePath);
    cleanups.push(created.drop, first.close);
    return { first };
  }

  it('replaces the narrow model, channel and group roll-up indexes with covering ones (0035), twice without harm', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    const covering = {
      switchboard_log_hourly: ['idx_log_hourly_by_model'],
      switchboard_log_hourly_channel_group: ['idx_log_hourly_channel_group_by_channel', 'idx_log_hourly_channel_group_by_channel_group'],
      switchboard_log_hourly_group: ['idx_log_hourly_group_by_group'],
    } as const;
    const tables = ['switchboard_log_hourly', 'switchboard_log_hourly_channel_group', 'switchboard_log_hourly_group'] as const;
    const expectCovering = async () => {
      for (const table of tables) {
        const present = await existingIndexes(first.db, table, first.dialect);
        for (const name of covering[table]) expect(present.has(name), name).toBe(true);
        for (const name of narrowRollUpIndexes[table]) expect(present.has(name), name).toBe(false);
      }
    };
    await expectCovering();
    // As on a database migrated before 0035: the narrow indexes of 0011, 0015 and 0033, a roll-up row.
    await sql`insert into switchboard_log_hourly_channel_group (bucket, type, channel_id, ${sql.ref('group')}, count, quota) values (3600, 2, 4, 'vip', 3, 30)`.execute(
      first.db,
    );
    for (const table of tables) {
      for (const name of covering[table])
        await first.db.schema
          .dropIndex(name)
          .$call((drop) => (first.dialect === 'mysql' ? drop.on(table) : drop))
          .execute();
      for (const name of narrowRollUpIndexes[table])
        await first.db.schema
          .createIndex(name)
          .on(table)
          .columns([name.includes('channel_id') ? 'channel_id' : name.includes('model_name') ? 'model_name' : 'group', 'bucket'])
          .execute();
    }
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0035');
    await migrateLogDatabase(first.db, first.dialect);
    await expectCovering();
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0035');
    await migrateLogDatabase(first.db, first.dialect);
    await expectCovering();
    const rows = await first.db.selectFrom('switchboard_log_hourly_channel_group').select(['count', 'quota']).where('channel_id', '=', 4).execute();
    expect(rows.map((row) => [Number(row.count), Number(row.quota)])).toEqual([[3, 30]]);
    if (first.dialect === 'postgres') {
      // The sums beside the entry, not in its order: an index-only read of a channel's hours.
      const definition = await sql<{
        indexdef: string;
      }>`select indexdef from pg_indexes where indexname = 'idx_log_hourly_channel_group_by_channel_group'`.execute(first.db);
      expect(definition.rows[0]?.indexdef).toMatch(/\(channel_id, "group", bucket\) INCLUDE \(type, count, quota\)$/);
    }
  });

  it('adds the daily per-user roll-ups (0036, 0037) to a log database migrated before them', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    const tables = ['switchboard_log_daily_user_token', 'switchboard_log_daily_user', 'switchboard_log_daily_user_model'];
    const columns = async () =>
      (await first.db.introspection.getTables())
        .filter((table) => tables.includes(table.name))
        .map((table) => [table.name, table.columns.map((column) => column.name).sort()])
        .sort();
    // 0037 replaced 0036's per-user table with the per-user and model one.
    const expected = [
      ['switchboard_log_daily_user_model', ['bucket', 'count', 'model_name', 'quota', 'type', 'user_id']],
      ['switchboard_log_daily_user_token', ['bucket', 'count', 'quota', 'token_name', 'type', 'user_id']],
    ];
    expect(await columns()).toEqual(expected);
    for (const table of expected.map(([name]) => name as string)) await first.db.schema.dropTable(table).execute();
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0036');
    expect(await columns()).toEqual([]);
    await migrateLogDatabase(first.db, first.dialect);
    expect(await columns()).toEqual(expected);
    expect((await existingIndexes(first.db, 'switchboard_log_daily_user_token', first.dialect)).has('idx_log_daily_user_token_by_token_user')).toBe(true);
    expect((await existingIndexes(first.db, 'switchboard_log_daily_user_model', first.dialect)).has('idx_log_daily_user_model_by_user')).toBe(true);
  });

  it('restarts the daily job from log id 0 on 0037, and twice without harm', async () => {
    const { first } = await open();
    await migrateLogDatabase(first.db, first.dialect);
    // As before 0037: the job's cursor well along, rows in 0036's tables.
    await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0037');
    await ensureTable(first.db, logDailyUser, first.dialect);
    await sql`insert into switchboard_log_daily_user (bucket, type, user_id, count, quota) values (86400, 2, 4, 3, 30)`.execute(first.db);
    await sql`insert into switchboard_log_daily_user_token (bucket, type, user_id, token_name, count, quota) values (86400, 2, 4, 'ci', 3, 30)`.execute(
      first.db,
    );
    await sql`insert into switchboard_job_state (name, last_id, updated_at) values ('log_daily_user', 1234, 1)`.execute(first.db);
    await sql`insert into switchboard_job_state (name, last_id, updated_at) values ('log_hourly', 1234, 1)`.execute(first.db);
    for (let run = 0; run < 2; run += 1) {
      await migrateLogDatabase(first.db, first.dialect);
      const cursors = await first.db.selectFrom('switchboard_job_state').select(['name', 'last_id']).orderBy('name').execute();
      expect(cursors.map((row) => [row.name, Number(row.last_id)])).toEqual([
        ['log_daily_user', 0],
        ['log_hourly', 1234],
      ]);
      expect(await first.db.selectFrom('switchboard_log_daily_user_token').selectAll().execute()).toEqual([]);
      expect((await first.db.introspection.getTables()).map((table) => table.name)).not.toContain('switchboard_log_daily_user');
      await forgetMigrationsFrom(first.db, 'switchboard_log_migration', '0037');
    }
  });
});
