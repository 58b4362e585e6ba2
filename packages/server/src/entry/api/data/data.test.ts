import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { aggregateQuotaData, quotaDataJob } from './quota-data-aggregator.ts';
import { QuotaDataRepository } from './quota-data.repository.ts';

const now = 1_760_000_400; // 400 s into an hour
const hour = now - (now % 3600);
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };

describe.each(testDatabases())('dashboard data on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let repository: QuotaDataRepository;

  const get = (as: TestUser, url: string) => testApp.app.inject({ method: 'GET', url, headers: { ...as.headers, 'accept-language': 'en' } }).then((response) => response.json());
  const consume = (user: TestUser, fields: Record<string, unknown>) => ({ user_id: user.id, username: user.username, type: LogType.consume, token_name: 'main', model_name: 'gpt-4o', group: 'default', quota: 100, prompt_tokens: 10, completion_tokens: 5, created_at: now, ...fields });

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    alice = await createTestUser(testApp, { username: 'alice' });
    bob = await createTestUser(testApp, { username: 'bob' });
    repository = new QuotaDataRepository(testApp.context.database.db, testApp.context.logDatabase.db);
    await testApp.context.logDatabase.db.deleteFrom('logs').execute();
    await testApp.context.database.db.deleteFrom('quota_data').execute();
    await testApp.context.database.db.deleteFrom('switchboard_job_state').where('name', '=', 'quota_data').execute();
    await testApp.context.logWriter.recordMany([
      consume(alice, { created_at: hour - 3600 + 10 }),
      consume(alice, { created_at: hour - 3600 + 20, quota: 300, prompt_tokens: 30, completion_tokens: 0 }),
      consume(alice, { model_name: 'o3', quota: 50 }),
      consume(bob, { quota: 1000, prompt_tokens: 1, completion_tokens: 1 }),
      // Not usage: top-ups and errors stay out of the dashboard.
      { user_id: alice.id, username: 'alice', type: LogType.topup, created_at: now, quota: 500000, content: 'redeemed' },
      { user_id: alice.id, username: 'alice', type: LogType.error, created_at: now, model_name: 'gpt-4o', content: 'upstream failed' },
    ]);
    await aggregateQuotaData(repository, await repository.maxLogId(), now);
  });
  afterAll(async () => testApp.close());

  it('sums consume logs into hourly buckets per user and model', async () => {
    const all = await get(root, `/api/data/?start_timestamp=${hour - 7200}&end_timestamp=${now}&username=`);
    expect(all.success).toBe(true);
    expect(all.data).toEqual([
      { user_id: alice.id, username: 'alice', model_name: 'gpt-4o', created_at: hour - 3600, token_used: 45, count: 2, quota: 400 },
      expect.objectContaining({ created_at: hour }),
      expect.objectContaining({ created_at: hour }),
    ]);
    const current = all.data.slice(1).sort((a: { quota: number }, b: { quota: number }) => a.quota - b.quota);
    expect(current).toEqual([
      { user_id: alice.id, username: 'alice', model_name: 'o3', created_at: hour, token_used: 15, count: 1, quota: 50 },
      { user_id: bob.id, username: 'bob', model_name: 'gpt-4o', created_at: hour, token_used: 2, count: 1, quota: 1000 },
    ]);
  });

  it('filters by time and username for administrators and totals per user', async () => {
    const bobOnly = await get(root, `/api/data?start_timestamp=${hour - 7200}&end_timestamp=${now}&username=bob`);
    expect(bobOnly.data.map((row: { username: string }) => row.username)).toEqual(['bob']);
    const lastHour = await get(root, `/api/data/?start_timestamp=${hour}&end_timestamp=${now}`);
    expect(lastHour.data).toHaveLength(2);
    const perUser = await get(root, `/api/data/users?start_timestamp=${hour - 7200}&end_timestamp=${now}`);
    expect(perUser.data).toEqual([
      { username: 'alice', created_at: hour - 3600, token_used: 45, count: 2, quota: 400 },
      { username: 'alice', created_at: hour, token_used: 15, count: 1, quota: 50 },
      { username: 'bob', created_at: hour, token_used: 2, count: 1, quota: 1000 },
    ]);
  });

  it('shows users only their own usage and keeps the all-users view for administrators', async () => {
    const mine = await get(alice, `/api/data/self/?start_timestamp=${hour - 7200}&end_timestamp=${now}&username=bob`);
    expect(mine.data.map((row: { quota: number }) => row.quota).sort((a: number, b: number) => a - b)).toEqual([50, 400]);
    const refused = await get(alice, `/api/data/?start_timestamp=${hour - 7200}&end_timestamp=${now}`);
    expect(refused.success).toBe(false);
    const refusedUsers = await get(alice, `/api/data/users?start_timestamp=${hour - 7200}&end_timestamp=${now}`);
    expect(refusedUsers.success).toBe(false);
  });

  it('adds new logs to existing buckets and never counts a log twice, even when runs overlap', async () => {
    await testApp.context.logWriter.recordMany([consume(bob, { quota: 7, prompt_tokens: 3, completion_tokens: 4 })]);
    const upTo = await repository.maxLogId();
    await Promise.all([aggregateQuotaData(repository, upTo, now), aggregateQuotaData(repository, upTo, now), aggregateQuotaData(repository, upTo, now)]);
    await aggregateQuotaData(repository, upTo, now);
    const rows = await get(root, `/api/data/?start_timestamp=${hour}&end_timestamp=${now}&username=bob`);
    expect(rows.data).toEqual([{ user_id: bob.id, username: 'bob', model_name: 'gpt-4o', created_at: hour, token_used: 9, count: 2, quota: 1007 }]);
  });

  it('lets the periodic job trail the newest log by one run', async () => {
    await testApp.context.logWriter.recordMany([consume(alice, { model_name: 'o3', quota: 1 })]);
    const run = quotaDataJob(repository, clock);
    expect(await run()).toBe(0);
    expect(await run()).toBeGreaterThan(0);
    const mine = await get(alice, `/api/data/self?start_timestamp=${hour}&end_timestamp=${now}`);
    expect(mine.data).toEqual([expect.objectContaining({ model_name: 'o3', count: 2, quota: 51 })]);
  });
});

describe.each(testDatabases())('a database brought over from new-api on $dialect', (database) => {
  let testApp: TestApp;
  afterAll(async () => testApp?.close());

  it('does not recount the logs its existing quota_data already covers', async () => {
    testApp = await createTestApp(database, {}, clock);
    const db = testApp.context.database.db;
    await testApp.context.logDatabase.db.deleteFrom('logs').execute();
    await db.deleteFrom('quota_data').execute();
    await db.deleteFrom('switchboard_job_state').where('name', '=', 'quota_data').execute();
    await testApp.context.logWriter.recordMany([{ user_id: 1, username: 'root', type: LogType.consume, model_name: 'gpt-4o', quota: 100, created_at: hour }]);
    await db.insertInto('quota_data').values({ user_id: 1, username: 'root', model_name: 'gpt-4o', created_at: hour, token_used: 0, count: 1, quota: 100 }).execute();
    const repository = new QuotaDataRepository(db, testApp.context.logDatabase.db);
    await aggregateQuotaData(repository, await repository.maxLogId(), now);
    const rows = await db.selectFrom('quota_data').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(Number(rows[0]?.quota)).toBe(100);
  });
});
