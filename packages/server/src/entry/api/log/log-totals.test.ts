import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { LogEntry } from '../../../domain/logs/log-writer.repository.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { createTestApp, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { rollUpLogs } from './log-hourly-rollup.ts';
import { channelGroupHourly, LogHourlyRepository, modelHourly } from './log-hourly.repository.ts';

const hour = 3600;
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

/** What a direct recount of the written logs answers: rows over the filters, and consumption quota. */
function recount(logs: readonly LogEntry[], query: Query): { count: number; quota: number } {
  const matches = (log: LogEntry, type: number | undefined) =>
    (query.channel === undefined || log.channel_id === query.channel) &&
    (query.group === undefined || log.group === query.group) &&
    (query.model_name === undefined || log.model_name === query.model_name) &&
    (query.username === undefined || log.username === query.username) &&
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
