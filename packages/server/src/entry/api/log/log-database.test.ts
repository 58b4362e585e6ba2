import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { createTestAppWithLogDatabase } from '../../../testing/test-app-with-log-database.ts';
import { type TestDatabase, testDatabases } from '../../../testing/test-databases.ts';
import { rollUpLogs } from './log-hourly-rollup.ts';
import { logHourlyRepositories } from './log-hourly.repository.ts';

const now = 1_760_000_000;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };

/** Logs in a second fresh database: SQLite always, and each server engine that is configured. */
function pairs(): Array<{ name: string; main: TestDatabase; log: TestDatabase }> {
  const [sqlite, ...servers] = testDatabases();
  if (!sqlite) throw new Error('SQLite test database missing');
  return [
    { name: 'sqlite with logs in another sqlite file', main: sqlite, log: sqlite },
    ...servers.flatMap((server) => [
      { name: `sqlite with logs in ${server.dialect} (LOG_SQL_DSN)`, main: sqlite, log: server },
      { name: `${server.dialect} with logs in another ${server.dialect} database (LOG_SQL_DSN)`, main: server, log: server },
    ]),
  ];
}

describe.each(pairs())('a separate log database: $name', ({ main, log }) => {
  let testApp: TestApp;
  let root: TestUser;

  /** Rows of `logs` in the main database: none, whether or not the table exists there. */
  const mainLogRows = async () => {
    const { db } = testApp.context.database;
    const tables = await db.introspection.getTables();
    if (!tables.some((table) => table.name === 'logs')) return 0;
    return (await db.selectFrom('logs').select('id').execute()).length;
  };
  const logRows = () => testApp.context.logDatabase.db.selectFrom('logs').select(['type', 'created_at', 'content']).orderBy('id').execute();

  beforeAll(async () => {
    testApp = await createTestAppWithLogDatabase(main, log, clock);
    root = await rootUser(testApp);
  });
  afterAll(async () => testApp.close());

  it('writes every log row there and none in the main database', async () => {
    expect(testApp.context.logDatabase).not.toBe(testApp.context.database);
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: root.headers,
      payload: { type: 1, name: 'audited', key: 'k', models: 'gpt-4o', group: 'default' },
    });
    expect(created.json().success).toBe(true);
    await testApp.context.logWriter.recordMany([
      { user_id: root.id, username: 'root', type: LogType.consume, model_name: 'gpt-4o', quota: 7, created_at: now - 10 },
    ]);

    const rows = await logRows();
    expect(rows.filter((row) => row.type === LogType.manage && (row.content ?? '').includes('audited'))).toHaveLength(1);
    expect(rows.filter((row) => row.type === LogType.consume)).toHaveLength(1);
    expect(await mainLogRows()).toBe(0);
    const page = (await testApp.app.inject({ method: 'GET', url: '/api/log/?p=1&page_size=50', headers: root.headers })).json();
    expect(page.data.total).toBe(rows.length);
  });

  it('purges with DELETE /api/log/ from there and answers the count it deleted', async () => {
    await testApp.context.logWriter.recordMany(
      [now - 9000, now - 8000, now - 7000].map((createdAt) => ({ user_id: root.id, username: 'root', type: LogType.consume, created_at: createdAt })),
    );
    const before = await logRows();
    const old = before.filter((row) => Number(row.created_at) < now - 3600).length;
    expect(old).toBe(3);

    const purged = await testApp.app.inject({ method: 'DELETE', url: `/api/log/?target_timestamp=${now - 3600}`, headers: root.headers });
    expect(purged.json()).toEqual({ success: true, message: '', data: 3 });
    expect((await logRows()).map((row) => Number(row.created_at))).toEqual(
      before.filter((row) => Number(row.created_at) >= now - 3600).map((row) => Number(row.created_at)),
    );
    expect(await mainLogRows()).toBe(0);
  });

  it("keeps the roll-ups and their cursors there: a user's totals come from the daily roll-up of that database", async () => {
    const day = 86_400;
    await testApp.context.logWriter.recordMany(
      [9, 7, 5, 4, 3, 1].map((days, index) => ({
        user_id: root.id,
        username: 'root',
        type: LogType.consume,
        token_name: index % 2 === 0 ? 'ci' : 'main',
        quota: 10 + index,
        created_at: now - days * day - 100,
      })),
    );
    const logDb = testApp.context.logDatabase.db;
    const [byModel, byChannelGroup, byUserToken] = logHourlyRepositories(logDb, testApp.context.logDatabase.dialect);
    await rollUpLogs(byModel, await byModel.maxLogId(), now);
    await rollUpLogs(byChannelGroup, await byChannelGroup.maxLogId(), now);
    await rollUpLogs(byUserToken, await byUserToken.maxLogId(), now);
    expect(await byUserToken.readWatermark()).toBe(await byUserToken.maxLogId());
    expect(await logDb.selectFrom('switchboard_log_daily_user_token').selectAll().execute()).not.toHaveLength(0);
    const direct = async (tokenName?: string) => {
      let query = logDb.selectFrom('logs').select('quota').where('user_id', '=', root.id);
      if (tokenName) query = query.where('token_name', '=', tokenName);
      return (await query.execute()).length;
    };
    const total = async (url: string) => (await testApp.app.inject({ method: 'GET', url, headers: root.headers })).json().data.total;
    expect(await total('/api/log/?p=1&page_size=1&username=root')).toBe(await direct());
    expect(await total('/api/log/self/?p=1&page_size=1&token_name=ci')).toBe(await direct('ci'));
    expect(await direct('ci')).toBe(3);
  });
});
