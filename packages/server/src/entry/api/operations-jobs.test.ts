import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { channelGroupHourly, LogHourlyRepository, modelHourly, userTokenDaily } from './log/log-hourly.repository.ts';
import { rollUpLogs } from './log/log-hourly-rollup.ts';
import { purgeLogsBefore } from './log/log-purge.ts';
import { LogRepository } from './log/log.repository.ts';
import { quotaDataJobName } from './data/quota-data.repository.ts';
import type { Clock } from '../../core/platform/clock.ts';
import { createTestApp, rootUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { applyLogRetention, operationsJobs } from './operations-jobs.ts';

const now = 1_760_000_000;
const day = 86_400;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };

describe.each(testDatabases())('operations jobs on $dialect', (database) => {
  // On SQLite ids commit in their order: a run goes up to the newest log, and the roll-ups run every 15 s.
  const logsOnSqlite = database.dialect === 'sqlite';
  const rollUpEvery = logsOnSqlite ? 15_000 : 60_000;
  let testApp: TestApp;
  let hourly: LogHourlyRepository<'model_name'>;
  let channelGroup: LogHourlyRepository<'channel_id' | 'group'>;

  const logDb = () => testApp.context.logDatabase.db;
  const remainingTimes = async () =>
    (await logDb().selectFrom('logs').select('created_at').orderBy('created_at').execute()).map((row) => Number(row.created_at));
  const consume = (createdAt: number, quota: number, model = 'gpt-4o', channel = 1, group = 'default') => ({
    user_id: 1,
    username: 'root',
    type: LogType.consume,
    model_name: model,
    channel_id: channel,
    group,
    quota,
    created_at: createdAt,
  });
  /** The hourly table as rows comparable with totals recounted from the logs that remain. */
  const hourlyRows = async () =>
    (await logDb().selectFrom('switchboard_log_hourly').selectAll().execute()).map((row) => ({
      bucket: Number(row.bucket),
      type: row.type,
      model_name: row.model_name,
      count: Number(row.count),
      quota: Number(row.quota),
    }));
  const byBucket = <T extends { bucket: number; model_name: string }>(rows: T[]) =>
    [...rows].sort((a, b) => a.bucket - b.bucket || a.model_name.localeCompare(b.model_name));
  /** The channel and group table, likewise, in a stable order. */
  const channelGroupRows = async () =>
    (await logDb().selectFrom('switchboard_log_hourly_channel_group').selectAll().execute()).map((row) => ({
      bucket: Number(row.bucket),
      type: Number(row.type),
      channel_id: Number(row.channel_id),
      group: row.group,
      count: Number(row.count),
      quota: Number(row.quota),
    }));
  const byChannel = <T extends { bucket: number; type: number; channel_id: number; group: string }>(rows: T[]) =>
    [...rows]
      .map((row) => ({ ...row, type: Number(row.type) }))
      .sort((a, b) => a.bucket - b.bucket || a.type - b.type || a.channel_id - b.channel_id || a.group.localeCompare(b.group));

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    hourly = new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, modelHourly);
    channelGroup = new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, channelGroupHourly);
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    await logDb().deleteFrom('logs').execute();
    await logDb().deleteFrom('switchboard_log_hourly').execute();
    await logDb().deleteFrom('switchboard_log_hourly_channel_group').execute();
    await logDb().deleteFrom('switchboard_log_daily_user_token').execute();
    await logDb().deleteFrom('switchboard_log_daily_user_model').execute();
    await logDb().deleteFrom('switchboard_job_state').where('name', 'in', [modelHourly.job, channelGroupHourly.job, userTokenDaily.job]).execute();
    await testApp.context.options.set('LogRetentionDays', '0');
  });

  it('keeps logs for LogRetentionDays days and keeps both hourly tables equal to the remaining logs', async () => {
    const cutoff = now - 3 * day;
    // Two rows share the cutoff's hour, so that hour's totals must be recounted, not dropped.
    await testApp.context.logWriter.recordMany([
      consume(now - 5 * day, 1),
      consume(now - 4 * day, 2, 'o3', 2),
      consume(cutoff - 10, 4, 'gpt-4o', 2, 'vip'),
      consume(cutoff + 10, 8, 'gpt-4o', 2, 'vip'),
      consume(now - 3600, 16, 'o3'),
      consume(now - 10, 32, 'o3', 3),
    ]);
    expect(await rollUpLogs(hourly, await hourly.maxLogId(), now)).toBeGreaterThan(0);
    expect(await rollUpLogs(channelGroup, await channelGroup.maxLogId(), now)).toBeGreaterThan(0);

    await testApp.context.options.set('LogRetentionDays', '3');
    expect(await applyLogRetention(testApp.context)).toBe(3);
    expect(await remainingTimes()).toEqual([cutoff + 10, now - 3600, now - 10]);
    expect(byBucket(await hourlyRows())).toEqual(byBucket(await hourly.totalsOfLogs(0, await hourly.readWatermark())));
    expect((await hourlyRows()).reduce((sum, row) => sum + row.quota, 0)).toBe(8 + 16 + 32);
    expect(byChannel(await channelGroupRows())).toEqual(byChannel(await channelGroup.totalsOfLogs(0, await channelGroup.readWatermark())));
    expect(byChannel(await channelGroupRows()).map((row) => [row.channel_id, row.group, row.count, row.quota])).toEqual([
      [2, 'vip', 1, 8],
      [1, 'default', 1, 16],
      [3, 'default', 1, 32],
    ]);

    // The log page's stats over the whole range read the hourly rows and agree with them.
    const root = await rootUser(testApp);
    const stat = async (query: string) =>
      (
        await testApp.app.inject({ method: 'GET', url: `/api/log/stat?start_timestamp=${now - 10 * day}&end_timestamp=${now}${query}`, headers: root.headers })
      ).json().data.quota;
    expect(await stat('')).toBe(8 + 16 + 32);
    expect(await stat('&channel=2')).toBe(8);
    expect(await stat('&group=vip')).toBe(8);
    expect(await stat('&group=default')).toBe(16 + 32);

    expect(await applyLogRetention(testApp.context)).toBe(0);
  });

  it('deletes nothing while LogRetentionDays is 0', async () => {
    await testApp.context.logWriter.recordMany([consume(now - 400 * day, 1), consume(now - 40 * day, 2)]);
    expect(await applyLogRetention(testApp.context)).toBe(0);
    expect(await remainingTimes()).toEqual([now - 400 * day, now - 40 * day]);
  });

  it('purges in bounded batches: a run stops after maxBatches and the next one goes on', async () => {
    await testApp.context.logWriter.recordMany([1, 2, 3, 4, 5].map((offset) => consume(now - 10 * day + offset, offset)));
    const repositories = { logs: new LogRepository(logDb()), hourly: [hourly, channelGroup] };
    const bounded = { batchSize: 2, maxBatches: 2 };
    expect(await purgeLogsBefore(repositories, now - day, now, bounded)).toBe(4);
    expect(await remainingTimes()).toEqual([now - 10 * day + 5]);
    expect(await purgeLogsBefore(repositories, now - day, now, bounded)).toBe(1);
    expect(await remainingTimes()).toEqual([]);
    expect(await purgeLogsBefore(repositories, now - day, now, bounded)).toBe(0);
  });

  it('schedules the dashboard aggregation every DataExportInterval minutes only while DataExportEnabled', async () => {
    const jobs = new Map(operationsJobs(testApp.context).map((job) => [job.name, job]));
    const quotaData = jobs.get('quota-data');
    if (!quotaData) throw new Error('quota-data job missing');
    await testApp.context.options.set('DataExportEnabled', 'false');
    await testApp.context.options.set('DataExportInterval', '7');
    expect(quotaData.intervalMs()).toBe(0);
    await testApp.context.options.set('DataExportEnabled', 'true');
    expect(quotaData.intervalMs()).toBe(7 * 60_000);
    await testApp.context.options.set('DataExportInterval', '1');
    expect(quotaData.intervalMs()).toBe(60_000);

    expect(jobs.get('log-hourly')?.intervalMs()).toBe(rollUpEvery);
    expect(jobs.get('log-hourly-channel-group')?.intervalMs()).toBe(rollUpEvery);
    expect(jobs.get('log-retention')?.intervalMs()).toBe(0);
    await testApp.context.options.set('LogRetentionDays', '30');
    expect(jobs.get('log-retention')?.intervalMs()).toBe(10 * 60_000);

    // A run aggregates up to the newest log the previous run saw (a commit may land out of id order), or
    // on SQLite, where ids commit in their order, to the newest log.
    const { db } = testApp.context.database;
    await db.deleteFrom('quota_data').execute();
    await db.deleteFrom('switchboard_job_state').where('name', '=', quotaDataJobName).execute();
    await testApp.context.logWriter.recordMany([consume(now - 60, 100), consume(now - 30, 200)]);
    const sums = async () =>
      (await db.selectFrom('quota_data').select(['count', 'quota']).execute()).map((row) => ({ count: Number(row.count), quota: Number(row.quota) }));
    await quotaData.run();
    expect(await sums()).toEqual(logsOnSqlite ? [{ count: 2, quota: 300 }] : []);
    await quotaData.run();
    expect(await sums()).toEqual([{ count: 2, quota: 300 }]);
  });

  it('rolls up channels and groups on its own cursor, catching up from log id 0 on an existing database', async () => {
    const jobs = new Map(operationsJobs(testApp.context).map((job) => [job.name, job]));
    const job = jobs.get('log-hourly-channel-group');
    if (!job) throw new Error('log-hourly-channel-group job missing');
    // Logs written before the table existed, with the first roll-up already far ahead of them.
    await testApp.context.logWriter.recordMany([
      consume(now - 9 * day, 1, 'gpt-4o', 4),
      consume(now - 2 * day, 2, 'o3', 5, 'vip'),
      consume(now - 60, 4, 'o3', 4, 'vip'),
    ]);
    await rollUpLogs(hourly, await hourly.maxLogId(), now);
    expect(await channelGroup.readWatermark()).toBe(0);

    // A run rolls up to the newest log the previous run saw (a commit may land out of id order), or on
    // SQLite, where ids commit in their order, to the newest log.
    await job.run();
    if (!logsOnSqlite) {
      expect(await channelGroupRows()).toEqual([]);
      await job.run();
    }
    expect(await channelGroup.readWatermark()).toBe(await channelGroup.maxLogId());
    expect(await hourly.readWatermark()).toBe(await hourly.maxLogId());
    expect(byChannel(await channelGroupRows()).map((row) => [row.channel_id, row.group, row.count, row.quota])).toEqual([
      [4, 'default', 1, 1],
      [5, 'vip', 1, 2],
      [4, 'vip', 1, 4],
    ]);
    await job.run();
    expect(byChannel(await channelGroupRows())).toEqual(byChannel(await channelGroup.totalsOfLogs(0, await channelGroup.maxLogId())));
  });

  it('rolls up users and token names per day on its own cursor from log id 0, and retention recounts the day it cut into', async () => {
    const jobs = new Map(operationsJobs(testApp.context).map((job) => [job.name, job]));
    const job = jobs.get('log-daily-user');
    if (!job) throw new Error('log-daily-user job missing');
    expect(job.intervalMs()).toBe(rollUpEvery);
    const daily = new LogHourlyRepository(logDb(), testApp.context.logDatabase.dialect, userTokenDaily);
    const cutoff = now - 3 * day;
    const byToken = (userId: number, tokenName: string, createdAt: number, quota: number) => ({
      ...consume(createdAt, quota),
      user_id: userId,
      token_name: tokenName,
    });
    // Two logs share the cutoff's day, one before and one after it: that day is recounted, not dropped.
    await testApp.context.logWriter.recordMany([
      byToken(1, 'ci', now - 5 * day, 1),
      byToken(2, 'ci', cutoff - 10, 2),
      byToken(2, 'ci', cutoff + 10, 4),
      byToken(2, 'main', now - 60, 8),
    ]);
    const dailyRows = async () =>
      (await logDb().selectFrom('switchboard_log_daily_user_token').selectAll().orderBy('bucket').orderBy('user_id').orderBy('token_name').execute()).map(
        (row) => [Number(row.bucket), Number(row.user_id), row.token_name, Number(row.count), Number(row.quota)],
      );
    const recounted = async () =>
      (await daily.totalsOfLogs(0, await daily.readWatermark()))
        .sort((a, b) => a.bucket - b.bucket || a.user_id - b.user_id || a.token_name.localeCompare(b.token_name))
        .map((row) => [row.bucket, row.user_id, row.token_name, row.count, row.quota]);
    // A run rolls up to the newest log the previous run saw, or on SQLite to the newest log.
    await job.run();
    if (!logsOnSqlite) {
      expect(await dailyRows()).toEqual([]);
      await job.run();
    }
    expect(await daily.readWatermark()).toBe(await daily.maxLogId());
    const dayOf = (time: number) => time - (time % day);
    expect(await dailyRows()).toEqual([
      [dayOf(now - 5 * day), 1, 'ci', 1, 1],
      [dayOf(cutoff), 2, 'ci', 2, 6],
      [dayOf(now), 2, 'main', 1, 8],
    ]);
    await testApp.context.options.set('LogRetentionDays', '3');
    expect(await applyLogRetention(testApp.context)).toBe(2);
    expect(await dailyRows()).toEqual([
      [dayOf(cutoff), 2, 'ci', 1, 4],
      [dayOf(now), 2, 'main', 1, 8],
    ]);
    expect(await dailyRows()).toEqual(await recounted());
    const users = await logDb().selectFrom('switchboard_log_daily_user_model').select(['user_id', 'count', 'quota']).orderBy('bucket').execute();
    expect(users.map((row) => [Number(row.user_id), Number(row.count), Number(row.quota)])).toEqual([
      [2, 1, 4],
      [2, 1, 8],
    ]);
  });
});
