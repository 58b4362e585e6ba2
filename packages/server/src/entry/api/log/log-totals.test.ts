import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { LogEntry } from '../../../domain/logs/log-row.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { ensureTable } from '../../../core/db/ensure-tables.ts';
import { migrateLogDatabase } from '../../../core/db/migrate.ts';
import { logDailyUser } from '../../../core/db/migrations/0036-log-daily-user.ts';
import { forgetMigrationsFrom } from '../../../testing/forget-migrations.ts';
import { rollUpLogs } from './log-hourly-rollup.ts';
import { channelGroupHourly, LogHourlyRepository, modelHourly, userModelDaily, userTokenDaily } from './log-hourly.repository.ts';

const hour = 3600;
const day = 86_400;
const now = 1_760_000_000;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };
const hourStart = (time: number) => time - (time % hour);

interface Query {
  channel?: number;
  group?: string;
  model_name?: string;
  username?: string;
  type?: number;
  start_timestamp?: number;
  end_timestamp?: number;
}

/** Forty hours of logs over three channels, two groups, two models and three log types. */
function spreadLogs(count: number, firstCreatedAt: number, step: number, seed: number): LogEntry[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + seed;
    return {
      user_id: 1 + (n % 2),
      username: n % 2 === 0 ? 'root' : 'bob',
      type: n % 10 === 0 ? LogType.topup : n % 13 === 0 ? LogType.error : LogType.consume,
      created_at: firstCreatedAt + index * step,
      model_name: n % 2 === 0 ? 'gpt-4o' : 'o3',
      channel_id: 1 + (n % 3),
      group: n % 4 === 0 ? 'vip' : 'default',
      quota: 1 + ((n * 37) % 500),
      prompt_tokens: 10,
      completion_tokens: 5,
    };
  });
}

/**
 * What a direct recount of the written logs answers: rows over the filters, and consumption quota;
 * only the logs of `userId` when given (a self page).
 */
function recount(logs: readonly LogEntry[], query: Query & UserQuery, userId?: number): { count: number; quota: number } {
  const matches = (log: LogEntry, type: number | undefined) =>
    (userId === undefined || log.user_id === userId) &&
    (query.channel === undefined || log.channel_id === query.channel) &&
    (query.group === undefined || log.group === query.group) &&
    (query.model_name === undefined || log.model_name === query.model_name) &&
    (query.username === undefined || log.username === query.username) &&
    (query.token_name === undefined || log.token_name === query.token_name) &&
    (type === undefined || log.type === type) &&
    (query.start_timestamp === undefined || Number(log.created_at) >= query.start_timestamp) &&
    (query.end_timestamp === undefined || Number(log.created_at) <= query.end_timestamp);
  return {
    count: logs.filter((log) => matches(log, query.type)).length,
    quota: logs.filter((log) => matches(log, LogType.consume)).reduce((sum, log) => sum + Number(log.quota), 0),
  };
}

const filters: Query[] = [
  // No filter and a type alone: the per-type roll-up (0033).
  {},
  { type: LogType.error },
  { channel: 1 },
  { channel: 2 },
  { group: 'vip' },
  { group: 'default' },
  { channel: 3, group: 'vip' },
  { channel: 1, type: LogType.consume },
  { group: 'vip', type: LogType.topup },
  // Model with channel or group, and per-user filters, are answered from the logs alone.
  { channel: 1, model_name: 'o3' },
  { group: 'vip', username: 'root' },
];

const ranges: Query[] = [
  {},
  { start_timestamp: now - 30 * hour - 1234, end_timestamp: now - 2 * hour + 777 },
  { start_timestamp: now - 20 * hour + 5 },
  { end_timestamp: now - 10 * hour - 17 },
  { start_timestamp: hourStart(now - 25 * hour), end_timestamp: hourStart(now - 5 * hour) - 1 },
];

const queries = filters.flatMap((filter) => ranges.map((range) => ({ ...filter, ...range })));

describe.each(testDatabases())('log totals with channel and group filters on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  const written: LogEntry[] = [];
  const logDb = () => testApp.context.logDatabase.db;
  const channelGroup = () => new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, channelGroupHourly);

  const search = (query: Query) => new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
  const get = async (url: string) => (await testApp.app.inject({ method: 'GET', url, headers: root.headers })).json().data;
  /** The log page's total and the stat's quota for a query, as the console would ask. */
  const answer = async (query: Query) => {
    const [page, stat] = await Promise.all([get(`/api/log/?p=1&page_size=1&${search(query)}`), get(`/api/log/stat?${search(query)}`)]);
    return { count: page.total, quota: stat.quota };
  };
  const expectExact = async () => {
    const answers = await Promise.all(queries.map(async (query) => ({ query, ...(await answer(query)) })));
    expect(answers).toEqual(queries.map((query) => ({ query, ...recount(written, query) })));
  };
  const write = async (logs: LogEntry[]) => {
    await testApp.context.logWriter.recordMany(logs);
    written.push(...logs);
  };
  const tableRows = async () =>
    (await logDb().selectFrom('switchboard_log_hourly_channel_group').selectAll().execute())
      .map((row) => ({
        bucket: Number(row.bucket),
        type: Number(row.type),
        channel_id: Number(row.channel_id),
        group: row.group,
        count: Number(row.count),
        quota: Number(row.quota),
      }))
      .sort((a, b) => a.bucket - b.bucket || a.type - b.type || a.channel_id - b.channel_id || a.group.localeCompare(b.group));

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    await logDb().deleteFrom('logs').execute();
    await write(spreadLogs(300, now - 40 * hour + 11, 463, 0));
  });
  afterAll(async () => testApp.close());

  it('answers totals and stats equal to a recount of the logs before any roll-up', async () => {
    await expectExact();
  });

  it('stays exact with part of the logs rolled up and newer logs after the watermark', async () => {
    const repository = channelGroup();
    const middle = (await repository.maxLogId()) - 120;
    expect(await rollUpLogs(repository, middle, now)).toBe(middle);
    expect(await repository.readWatermark()).toBe(middle);
    expect(await tableRows()).not.toHaveLength(0);
    // Newer ids, some in old hours (a late batch), some in the partial hours at the range ends.
    await write([...spreadLogs(40, now - 29 * hour - 900, 2017, 7), ...spreadLogs(10, now - 2 * hour + 100, 61, 3)]);
    await expectExact();
  });

  it('never counts a log twice when two roll-ups run at once, and matches a recount of the logs', async () => {
    const [first, second] = [channelGroup(), channelGroup()];
    const upTo = await first.maxLogId();
    await Promise.all([rollUpLogs(first, upTo, now), rollUpLogs(second, upTo, now)]);
    expect(await first.readWatermark()).toBe(upTo);
    const recounted = (await first.totalsOfLogs(0, upTo)).map((row) => ({ ...row, type: Number(row.type) }));
    expect(await tableRows()).toEqual(
      [...recounted].sort((a, b) => a.bucket - b.bucket || a.type - b.type || a.channel_id - b.channel_id || a.group.localeCompare(b.group)),
    );
    const models = new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, modelHourly);
    await rollUpLogs(models, await models.maxLogId(), now);
    await expectExact();
    // The coarser roll-ups kept by the same jobs hold exactly the finer ones' sums.
    const regrouped = async (table: 'switchboard_log_hourly' | 'switchboard_log_hourly_channel_group', keys: Array<'group'>) =>
      sortedRows(
        await logDb()
          .selectFrom(table)
          .select(['bucket', 'type', ...keys, sql<number>`sum(${sql.ref('count')})`.as('count'), sql<number>`sum(${sql.ref('quota')})`.as('quota')])
          .groupBy(['bucket', 'type', ...keys])
          .execute(),
      );
    expect(sortedRows(await logDb().selectFrom('switchboard_log_hourly_type').selectAll().execute())).toEqual(await regrouped('switchboard_log_hourly', []));
    expect(sortedRows(await logDb().selectFrom('switchboard_log_hourly_group').selectAll().execute())).toEqual(
      await regrouped('switchboard_log_hourly_channel_group', ['group']),
    );
  });

  it('reads whole hours of no filter, type, group and channel filters from the smallest roll-up that has them, and model with channel from the logs', async () => {
    const bucket = hourStart(now - 15 * hour);
    const row = await logDb()
      .selectFrom('switchboard_log_hourly_channel_group')
      .selectAll()
      .where('bucket', '=', bucket)
      .where('type', '=', LogType.consume)
      .orderBy('channel_id')
      .orderBy('group')
      .executeTakeFirstOrThrow();
    const range = { start_timestamp: now - 30 * hour - 1234, end_timestamp: now - 2 * hour + 777 };
    const channelOnly = { channel: Number(row.channel_id), ...range };
    const groupOnly = { group: row.group, ...range };
    const withModel = { channel: Number(row.channel_id), model_name: 'o3', ...range };
    const unfiltered = { ...range };
    const consumption = { type: LogType.consume, ...range };
    /** Adds `delta` logs (and 1000 quota each) to one hour's consumption row of a roll-up table. */
    const shift = (table: 'switchboard_log_hourly_channel_group' | 'switchboard_log_hourly_group' | 'switchboard_log_hourly_type', delta: number) => {
      let update = logDb()
        .updateTable(table)
        .set((eb) => ({ count: eb('count', '+', delta), quota: eb('quota', '+', 1000 * delta) }))
        .where('bucket', '=', bucket)
        .where('type', '=', LogType.consume);
      if (table !== 'switchboard_log_hourly_type') update = update.where('group', '=', row.group);
      if (table === 'switchboard_log_hourly_channel_group') update = update.where('channel_id', '=', row.channel_id);
      return update.execute();
    };
    const plus = (query: Query, delta: number) => ({ count: recount(written, query).count + delta, quota: recount(written, query).quota + 1000 * delta });
    // A marker added to one hourly row shows up in exactly the answers that read it.
    const markers = [
      ['switchboard_log_hourly_channel_group', 5],
      ['switchboard_log_hourly_group', 7],
      ['switchboard_log_hourly_type', 11],
    ] as const;
    for (const [table, delta] of markers) await shift(table, delta);
    try {
      expect(await answer(channelOnly)).toEqual(plus(channelOnly, 5));
      expect(await answer(groupOnly)).toEqual(plus(groupOnly, 7));
      expect(await answer(unfiltered)).toEqual(plus(unfiltered, 11));
      expect(await answer(consumption)).toEqual(plus(consumption, 11));
      expect(await answer(withModel)).toEqual(recount(written, withModel));
    } finally {
      for (const [table, delta] of markers) await shift(table, -delta);
    }
    await expectExact();
  });
});

/** Hourly rows with numbers as numbers (PostgreSQL answers bigint sums as text), in one order. */
function sortedRows(rows: ReadonlyArray<Record<string, unknown>>): Array<Record<string, number | string>> {
  return rows
    .map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, key === 'group' ? String(value) : Number(value)])))
    .sort((a, b) => Number(a.bucket) - Number(b.bucket) || Number(a.type) - Number(b.type) || String(a.group ?? '').localeCompare(String(b.group ?? '')));
}

/** A user's own filters (the self page pins the user id) or an administrator's (by username). */
interface UserQuery {
  username?: string;
  token_name?: string;
  model_name?: string;
  type?: number;
  start_timestamp?: number;
  end_timestamp?: number;
}

const dayStart = (time: number) => time - (time % day);

/** Twelve days of logs of three users and three token names, of three types, a few an hour. */
function userLogs(count: number, firstCreatedAt: number, step: number, seed: number, users: ReadonlyArray<{ id: number; username: string }>): LogEntry[] {
  return Array.from({ length: count }, (_, index) => {
    const n = index + seed;
    // root most, then bob, alice least (as a heavy user and light ones).
    const user = users[n % 7 < 4 ? 0 : n % 7 < 6 ? 1 : 2]!;
    return {
      user_id: user.id,
      username: user.username,
      type: n % 10 === 0 ? LogType.topup : n % 13 === 0 ? LogType.error : LogType.consume,
      created_at: firstCreatedAt + index * step,
      model_name: n % 2 === 0 ? 'gpt-4o' : 'o3',
      token_name: ['alpha', 'beta', 'gamma'][n % 3]!,
      channel_id: 1 + (n % 3),
      group: 'default',
      quota: 1 + ((n * 37) % 500),
      prompt_tokens: 10,
      completion_tokens: 5,
    };
  });
}

const userFilters: UserQuery[] = [
  // A user alone, with a token name, with a type: the daily roll-ups (0036).
  { username: 'root' },
  { username: 'bob', token_name: 'alpha' },
  { username: 'root', type: LogType.consume },
  { username: 'bob', token_name: 'beta', type: LogType.topup },
  // A token name without a user: the per-token daily roll-up too.
  { token_name: 'gamma' },
  { token_name: 'beta', type: LogType.consume },
  // A user with a model, and a type: the per-user and model roll-up (0037).
  { username: 'bob', model_name: 'o3' },
  { username: 'root', model_name: 'gpt-4o', type: LogType.consume },
  { username: 'alice', model_name: 'o3', type: LogType.topup },
  // A token name with a model, a user with a model and a token name: no daily roll-up has them, read from the logs.
  { token_name: 'alpha', model_name: 'gpt-4o' },
  { username: 'bob', token_name: 'beta', model_name: 'o3' },
];

/** The self page's filters (the caller's own user id), answered by the same tables. */
const selfFilters: UserQuery[] = [{}, { token_name: 'gamma' }, { type: LogType.error }, { model_name: 'gpt-4o' }, { model_name: 'o3', type: LogType.consume }];

const userRanges: UserQuery[] = [
  {},
  // Whole days with partial days at both ends, open at either end, whole days exactly, and two days
  // (fewer whole days than the roll-up is read for).
  { start_timestamp: now - 10 * day - 1234, end_timestamp: now - 2 * day + 777 },
  { start_timestamp: now - 6 * day + 5 },
  { end_timestamp: now - 3 * day - 17 },
  { start_timestamp: dayStart(now - 9 * day), end_timestamp: dayStart(now - 2 * day) - 1 },
  { start_timestamp: now - 5 * day + 100, end_timestamp: now - 3 * day - 100 },
];

const userQueries = userFilters.flatMap((filter) => userRanges.map((range) => ({ ...filter, ...range })));
const selfQueries = selfFilters.flatMap((filter) => userRanges.map((range) => ({ ...filter, ...range })));

describe.each(testDatabases())('log totals of users and token names on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let bob: TestUser;
  let alice: TestUser;
  const written: LogEntry[] = [];
  const logDb = () => testApp.context.logDatabase.db;
  const byUserToken = () => new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, userTokenDaily);
  const byUserModel = () => new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, userModelDaily);

  const search = (query: UserQuery) => new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
  const get = async (url: string, headers: Record<string, string>) => (await testApp.app.inject({ method: 'GET', url, headers })).json().data;
  /** The log page's total and the stat's quota, as the console asks for them (an administrator, or `self` for its own). */
  const answer = async (query: UserQuery, self?: TestUser) => {
    const path = self ? '/api/log/self' : '/api/log';
    const headers = (self ?? root).headers;
    const [page, stat] = await Promise.all([get(`${path}/?p=1&page_size=1&${search(query)}`, headers), get(`${path}/stat?${search(query)}`, headers)]);
    return { count: page.total, quota: stat.quota };
  };
  const expectExact = async () => {
    const admin = await Promise.all(userQueries.map(async (query) => ({ query, ...(await answer(query)) })));
    expect(admin).toEqual(userQueries.map((query) => ({ query, ...recount(written, query) })));
    const own = await Promise.all(selfQueries.map(async (query) => ({ query, ...(await answer(query, bob)) })));
    expect(own).toEqual(selfQueries.map((query) => ({ query, ...recount(written, query, bob.id) })));
  };
  const write = async (logs: LogEntry[]) => {
    await testApp.context.logWriter.recordMany(logs);
    written.push(...logs);
  };
  const dailyRows = async () => sortedUserRows(await logDb().selectFrom('switchboard_log_daily_user_token').selectAll().execute());
  const userModelRows = async () => sortedUserRows(await logDb().selectFrom('switchboard_log_daily_user_model').selectAll().execute());
  /** Both daily tables equal a recount of the logs up to the job's cursor. */
  const expectRecounted = async () => {
    const upTo = await byUserToken().readWatermark();
    expect(await dailyRows()).toEqual(sortedUserRows(await byUserToken().totalsOfLogs(0, upTo)));
    expect(await userModelRows()).toEqual(sortedUserRows(await byUserModel().totalsOfLogs(0, upTo)));
  };

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    bob = await createTestUser(testApp, { username: 'bob' });
    alice = await createTestUser(testApp, { username: 'alice' });
    await logDb().deleteFrom('logs').execute();
    await write(userLogs(400, now - 12 * day + 11, 2591, 0, [root, bob, alice]));
  });
  afterAll(async () => testApp.close());

  it('answers totals and stats equal to a recount of the logs before any roll-up', async () => {
    await expectExact();
  });

  it('stays exact with part of the logs rolled up per day and newer logs after the watermark', async () => {
    const repository = byUserToken();
    const middle = (await repository.maxLogId()) - 90;
    expect(await rollUpLogs(repository, middle, now)).toBe(middle);
    expect(await repository.readWatermark()).toBe(middle);
    const rows = await dailyRows();
    expect(rows).not.toHaveLength(0);
    // Buckets are whole UTC days.
    for (const row of rows) expect(Number(row.bucket) % day).toBe(0);
    // Newer ids, some in old days (a late batch), some in the partial days at the range ends.
    await write([...userLogs(40, now - 9 * day - 900, 7777, 7, [root, bob, alice]), ...userLogs(15, now - 2 * day + 100, 613, 3, [bob, root, alice])]);
    await expectExact();
  });

  it('never counts a log twice when two roll-ups run at once, and the per-model table holds the per-token sums', async () => {
    const [first, second] = [byUserToken(), byUserToken()];
    const upTo = await first.maxLogId();
    await Promise.all([rollUpLogs(first, upTo, now), rollUpLogs(second, upTo, now)]);
    expect(await first.readWatermark()).toBe(upTo);
    await expectRecounted();
    // Both tables cut the same logs: per (day, type, user) their sums agree.
    const regrouped = async (table: 'switchboard_log_daily_user_token' | 'switchboard_log_daily_user_model') =>
      sortedUserRows(
        await logDb()
          .selectFrom(table)
          .select(['bucket', 'type', 'user_id', sql<number>`sum(${sql.ref('count')})`.as('count'), sql<number>`sum(${sql.ref('quota')})`.as('quota')])
          .groupBy(['bucket', 'type', 'user_id'])
          .execute(),
      );
    expect(await regrouped('switchboard_log_daily_user_model')).toEqual(await regrouped('switchboard_log_daily_user_token'));
    await expectExact();
  });

  it('reads whole days of a user, with a model, or a token name from the daily roll-ups, and a token name with a model from the logs', async () => {
    const bucket = dayStart(now - 5 * day);
    const range = { start_timestamp: now - 10 * day - 1234, end_timestamp: now - 2 * day + 777 };
    const userOnly = { username: 'bob', ...range };
    const withModel = { username: 'bob', model_name: 'o3', ...range };
    const withOtherModel = { username: 'bob', model_name: 'gpt-4o', ...range };
    const withToken = { username: 'bob', token_name: 'alpha', ...range };
    const tokenOnly = { token_name: 'alpha', ...range };
    const tokenAndModel = { token_name: 'alpha', model_name: 'gpt-4o', ...range };
    /** Adds `delta` logs (and 1000 quota each) to bob's consumption of `o3` (or with token `alpha`) on one day of a daily table. */
    const shift = (table: 'switchboard_log_daily_user_model' | 'switchboard_log_daily_user_token', delta: number) => {
      let update = logDb()
        .updateTable(table)
        .set((eb) => ({ count: eb('count', '+', delta), quota: eb('quota', '+', 1000 * delta) }))
        .where('bucket', '=', bucket)
        .where('type', '=', LogType.consume)
        .where('user_id', '=', bob.id);
      update = table === 'switchboard_log_daily_user_token' ? update.where('token_name', '=', 'alpha') : update.where('model_name', '=', 'o3');
      return update.executeTakeFirst();
    };
    const plus = (query: UserQuery, delta: number, userId?: number) => ({
      count: recount(written, query, userId).count + delta,
      quota: recount(written, query, userId).quota + 1000 * delta,
    });
    const markers = [
      ['switchboard_log_daily_user_model', 5],
      ['switchboard_log_daily_user_token', 7],
    ] as const;
    for (const [table, delta] of markers) expect(Number((await shift(table, delta)).numUpdatedRows)).toBe(1);
    try {
      expect(await answer(userOnly)).toEqual(plus(userOnly, 5));
      // The marked model's row, and only that model's: a sum of the wrong rows shows here.
      expect(await answer(withModel)).toEqual(plus(withModel, 5));
      expect(await answer(withOtherModel)).toEqual(recount(written, withOtherModel));
      expect(await answer({ model_name: 'o3', ...range }, bob)).toEqual(plus({ model_name: 'o3', ...range }, 5, bob.id));
      expect(await answer({ username: 'root', model_name: 'o3', ...range })).toEqual(recount(written, { username: 'root', model_name: 'o3', ...range }));
      expect(await answer(withToken)).toEqual(plus(withToken, 7));
      expect(await answer({ token_name: 'alpha', ...range }, bob)).toEqual(plus({ token_name: 'alpha', ...range }, 7, bob.id));
      expect(await answer(tokenOnly)).toEqual(plus(tokenOnly, 7));
      expect(await answer(tokenAndModel)).toEqual(recount(written, tokenAndModel));
    } finally {
      for (const [table, delta] of markers) await shift(table, -delta);
    }
    await expectExact();
  });

  it('counts the logs again from id 0 after an upgrade to the per-model table (0037), exact throughout', async () => {
    const { db, dialect } = testApp.context.logDatabase;
    // As before 0037: 0036's per-user table, no per-model one, the job caught up, logs written since.
    await forgetMigrationsFrom(db, 'switchboard_log_migration', '0037');
    await db.schema.dropTable('switchboard_log_daily_user_model').execute();
    await ensureTable(db, logDailyUser, dialect);
    await sql`insert into switchboard_log_daily_user (bucket, type, user_id, count, quota)
      select bucket, type, user_id, sum(count), sum(quota) from switchboard_log_daily_user_token group by bucket, type, user_id`.execute(db);
    expect(await byUserToken().readWatermark()).toBe(await byUserToken().maxLogId());
    await write(userLogs(30, now - 7 * day + 55, 9001, 5, [alice, root, bob]));
    await migrateLogDatabase(db, dialect);
    const tables = (await db.introspection.getTables()).map((table) => table.name);
    expect(tables).toContain('switchboard_log_daily_user_model');
    expect(tables).not.toContain('switchboard_log_daily_user');
    expect(await byUserToken().readWatermark()).toBe(0);
    expect(await dailyRows()).toEqual([]);
    expect(await userModelRows()).toEqual([]);
    await expectExact();
    // The job catches up in batches; each leaves the totals exact.
    const repository = byUserToken();
    const middle = Math.floor((await repository.maxLogId()) / 2);
    await rollUpLogs(repository, middle, now);
    await expectRecounted();
    await expectExact();
    await rollUpLogs(repository, await repository.maxLogId(), now);
    expect(await repository.readWatermark()).toBe(await repository.maxLogId());
    await expectRecounted();
    await expectExact();
  });

  it('recounts the day a purge cut into, and drops the days before it', async () => {
    const cutoff = now - 8 * day + 4321;
    const purged = await testApp.app.inject({ method: 'DELETE', url: `/api/log/?target_timestamp=${cutoff}`, headers: root.headers });
    const removed = written.filter((log) => Number(log.created_at) < cutoff).length;
    expect(purged.json().data).toBe(removed);
    written.splice(0, written.length, ...written.filter((log) => Number(log.created_at) >= cutoff));
    for (const rows of [await dailyRows(), await userModelRows()]) expect(Math.min(...rows.map((row) => Number(row.bucket)))).toBe(dayStart(cutoff));
    await expectRecounted();
    await expectExact();
  });
});

/** Daily rows with numbers as numbers, in one order. */
function sortedUserRows(rows: ReadonlyArray<object>): Array<Record<string, number | string>> {
  return rows
    .map((row) =>
      Object.fromEntries(Object.entries(row).map(([key, value]) => [key, key === 'token_name' || key === 'model_name' ? String(value) : Number(value)])),
    )
    .sort(
      (a, b) =>
        Number(a.bucket) - Number(b.bucket) ||
        Number(a.type) - Number(b.type) ||
        Number(a.user_id) - Number(b.user_id) ||
        String(a.token_name ?? '').localeCompare(String(b.token_name ?? '')) ||
        String(a.model_name ?? '').localeCompare(String(b.model_name ?? '')),
    );
}
