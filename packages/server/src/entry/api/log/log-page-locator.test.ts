import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { LogEntry } from '../../../domain/logs/log-row.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { type LogFilters, logFiltersFrom } from './log-filters.ts';
import { rollUpLogs } from './log-hourly-rollup.ts';
import { logHourlyReaders, logHourlyRepositories } from './log-hourly.repository.ts';
import { LogRepository } from './log.repository.ts';
import { LogPageLocator } from './log-page-locator.ts';
import { logBatches } from '../export/log-batches.ts';

const hour = 3600;
const now = 1_760_000_000;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };
const hourStart = (time: number) => time - (time % hour);
const pageSize = 7;

type Query = Record<string, string | number>;

/** A deterministic spread with skew: low values far more often than high ones (as models and channels are used). */
const skewed = (n: number, salt: number, count: number) => Math.floor((((((n + salt) * 2_654_435_761) >>> 0) % 1000) ** 2 / 1_000_000) * count);

/**
 * Fifty hours of logs at an uneven pace (bursts, quiet hours, several logs in one second so ties go
 * by id), over three users, four models, five channels, three groups, three log types and tokens.
 */
function variedLogs(count: number, firstCreatedAt: number, seed: number, users: ReadonlyArray<{ id: number; username: string }>): LogEntry[] {
  let createdAt = firstCreatedAt;
  return Array.from({ length: count }, (_, index) => {
    const n = index + seed;
    // Mostly seconds apart, sometimes the same second, sometimes a quiet hour or two.
    createdAt += n % 97 === 0 ? 2 * hour + 17 : n % 5 === 0 ? 0 : 1 + skewed(n, 11, 400);
    const user = users[skewed(n, 1, users.length)]!;
    return {
      user_id: user.id,
      username: user.username,
      type: n % 10 === 0 ? LogType.topup : n % 13 === 0 ? LogType.error : LogType.consume,
      created_at: createdAt,
      model_name: ['gpt-4o', 'o3', 'claude', 'rare-model'][skewed(n, 2, 4)]!,
      channel_id: 1 + skewed(n, 3, 5),
      group: ['default', 'vip', 'svip'][skewed(n, 4, 3)]!,
      token_name: `token-${skewed(n, 5, 4)}`,
      quota: 1 + ((n * 37) % 500),
      prompt_tokens: 10,
      completion_tokens: 5,
    };
  });
}

const filters: Query[] = [
  {},
  { model_name: 'gpt-4o' },
  { model_name: 'rare-model' },
  { model_name: 'o3', type: LogType.consume },
  { channel: 1 },
  { channel: 5 },
  { group: 'vip' },
  { channel: 2, group: 'default' },
  { group: 'svip', type: LogType.topup },
  { type: LogType.error },
  // No filter, a type or a group alone: totals from the per-type and per-group roll-ups (0033).
  { type: LogType.consume },
  { group: 'default' },
  { username: 'root' },
  { username: 'bob', model_name: 'claude' },
  // A user with a token name or a type: totals from the daily per-user roll-ups (0036), rows from the user index.
  { username: 'bob', token_name: 'token-1' },
  { username: 'root', type: LogType.topup },
  { username: 'nobody' },
  { token_name: 'token-1' },
  { token_name: 'token-0', model_name: 'gpt-4o' },
  // No roll-up has both: read from the logs alone.
  { channel: 1, model_name: 'o3' },
];

const ranges: Query[] = [
  {},
  { start_timestamp: now - 40 * hour - 1234, end_timestamp: now - 3 * hour + 777 },
  { start_timestamp: now - 20 * hour + 5 },
  { end_timestamp: now - 10 * hour - 17 },
  { start_timestamp: hourStart(now - 25 * hour), end_timestamp: hourStart(now - 5 * hour) - 1 },
  { start_timestamp: now - 30 * hour + 100, end_timestamp: now - 30 * hour + 2000 },
];

const queries = filters.flatMap((filter) => ranges.map((range) => ({ ...filter, ...range })));

/** Each case compares a few hundred pages through the HTTP layer: more than the default 30 s on a busy machine. */
const comparisonTimeout = 180_000;

describe.each(testDatabases())('log pages through the hourly roll-ups on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let bob: TestUser;
  const logDb = () => testApp.context.logDatabase.db;

  const search = (query: Query) => new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)])).toString();
  const get = async (url: string, headers: Record<string, string>) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers });
    expect(response.statusCode, url).toBe(200);
    return response.json().data as { items: Array<{ id: number }>; total: number };
  };

  /**
   * Every page of every query as the console gets it, against today's query (one statement over the
   * whole range, username matched on the logs): the same ids in the same order, and the same totals.
   */
  const expectPagesAsBefore = async (self?: TestUser) => {
    const before = new LogRepository(logDb());
    for (const query of queries) {
      // As the route reads them: every query parameter is a string.
      const old = logFiltersFrom(Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])), self ? { userId: self.id } : undefined);
      const total = await before.count(old);
      const lastPage = Math.ceil(total / pageSize) + 1;
      for (const page of [...new Set([1, 2, Math.ceil(lastPage / 2), lastPage])]) {
        const url = `/api/log/${self ? 'self' : ''}?p=${page}&page_size=${pageSize}&${search(query)}`;
        const answer = await get(url, (self ?? root).headers);
        const expected = await before.page(old, (page - 1) * pageSize, pageSize);
        expect({ url, ids: answer.items.map((item) => item.id), total: answer.total }).toEqual({ url, ids: expected.map((row) => Number(row.id)), total });
      }
    }
  };

  /**
   * The CSV export's batches (small, so batch edges fall inside the ranges) against one query over the
   * whole range: every log, once, in the same order. Answers the ranges read per query.
   */
  const expectExportsAsBefore = async () => {
    const before = new LogRepository(logDb());
    const locator = new LogPageLocator(before, logHourlyReaders(logDb(), testApp.context.logDatabase.dialect));
    const rangesRead = new Map<string, LogFilters[]>();
    for (const query of queries) {
      if (query.username !== undefined) continue; // resolved to ids before the export reads (log.service.ts)
      const old = logFiltersFrom(Object.fromEntries(Object.entries(query).map(([key, value]) => [key, String(value)])));
      const ids: number[] = [];
      for await (const batch of logBatches(old, locator, before, 5)) ids.push(...batch.map((row) => Number(row.id)));
      const expected = await before.page(old, 0, 100_000);
      expect({ query, ids }).toEqual({ query, ids: expected.map((row) => Number(row.id)) });
      const ranges: LogFilters[] = [];
      for await (const range of locator.ranges(old)) ranges.push(range);
      rangesRead.set(search(query), ranges);
    }
    return rangesRead;
  };

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    bob = await createTestUser(testApp, { username: 'bob' });
    const alice = await createTestUser(testApp, { username: 'alice' });
    await logDb().deleteFrom('logs').execute();
    await testApp.context.logWriter.recordMany(variedLogs(700, now - 50 * hour + 11, 0, [root, bob, alice]));
  });
  afterAll(async () => testApp.close());

  it(
    'answers the same pages as one query over the logs before any roll-up',
    async () => {
      await expectPagesAsBefore();
      await expectExportsAsBefore();
    },
    comparisonTimeout,
  );

  it(
    'answers the same pages with part of the logs rolled up and newer ones after the watermark, some in old hours',
    async () => {
      const [byModel, byChannelGroup, byUserToken] = logHourlyRepositories(logDb(), testApp.context.logDatabase.dialect);
      const middle = (await byModel.maxLogId()) - 150;
      await rollUpLogs(byModel, middle, now);
      await rollUpLogs(byChannelGroup, middle - 40, now);
      await rollUpLogs(byUserToken, middle - 70, now);
      // A late batch: ids after the watermarks, created hours ago (the page reads those hours directly).
      await testApp.context.logWriter.recordMany(variedLogs(60, now - 33 * hour - 900, 7, [root, bob]));
      await expectPagesAsBefore();
      await expectPagesAsBefore(bob);
      await expectExportsAsBefore();
    },
    comparisonTimeout,
  );

  it(
    'answers the same pages with everything rolled up, and skips hours by the roll-up counts',
    async () => {
      const [byModel, byChannelGroup, byUserToken] = logHourlyRepositories(logDb(), testApp.context.logDatabase.dialect);
      await rollUpLogs(byModel, await byModel.maxLogId(), now);
      await rollUpLogs(byChannelGroup, await byChannelGroup.maxLogId(), now);
      await rollUpLogs(byUserToken, await byUserToken.maxLogId(), now);
      await expectPagesAsBefore();
      await expectPagesAsBefore(bob);
      // The export reads only the hours that hold the filter's logs: the rare model's export is several
      // ranges (hours without it are skipped), and every range it reads has some.
      const rangesRead = await expectExportsAsBefore();
      const rare = rangesRead.get(search({ model_name: 'rare-model' }))!;
      expect(rare.length).toBeGreaterThan(1);
      const logs = new LogRepository(logDb());
      for (const range of rare) expect(await logs.count(range), JSON.stringify(range)).toBeGreaterThan(0);
      // The counts are what the page trusts to skip hours: one hour's count raised by 3 moves the rows
      // of a deeper page by 3, which shows the whole hours were not read.
      const rows = await logDb().selectFrom('switchboard_log_hourly').selectAll().where('model_name', '=', 'gpt-4o').orderBy('bucket', 'desc').execute();
      const newest = rows[0]!;
      await logDb()
        .updateTable('switchboard_log_hourly')
        .set({ count: Number(newest.count) + 3 })
        .where('bucket', '=', newest.bucket)
        .where('type', '=', newest.type)
        .where('model_name', '=', 'gpt-4o')
        .execute();
      try {
        const old = new LogRepository(logDb());
        const deep = await get(`/api/log/?p=4&page_size=${pageSize}&model_name=gpt-4o`, root.headers);
        const expected = await old.page({ modelName: 'gpt-4o' }, 3 * pageSize - 3, pageSize);
        expect(deep.items.map((item) => item.id)).toEqual(expected.map((row) => Number(row.id)));
      } finally {
        await logDb()
          .updateTable('switchboard_log_hourly')
          .set({ count: Number(newest.count) })
          .where('bucket', '=', newest.bucket)
          .where('type', '=', newest.type)
          .where('model_name', '=', 'gpt-4o')
          .execute();
      }
    },
    comparisonTimeout,
  );

  it('resolves a username to its user id: an unknown name answers an empty page, and the stat of a name equals the old one', async () => {
    const unknown = await get(`/api/log/?p=1&page_size=${pageSize}&username=nobody`, root.headers);
    expect(unknown).toMatchObject({ items: [], total: 0 });
    const stat = await testApp.app.inject({ method: 'GET', url: '/api/log/stat?username=bob&type=2', headers: root.headers });
    const old = new LogRepository(logDb());
    expect(stat.json().data.quota).toBe(await old.quotaSum({ username: 'bob', type: LogType.consume }));
  });
});
