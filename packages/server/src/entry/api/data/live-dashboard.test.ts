import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { aggregateLogsAfterCursor } from '../../../domain/logs/log-cursor-aggregation.ts';
import type { Clock } from '../../../core/platform/clock.ts';
import { seedChannel } from '../../relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { ChannelStatsRepository } from './channel-stats.repository.ts';
import { aggregateQuotaData } from './quota-data-aggregator.ts';
import { QuotaDataRepository } from './quota-data.repository.ts';

const now = 1_760_000_400; // 400 s into an hour
const hour = now - (now % 3600);
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };

describe.each(testDatabases())('the live dashboard on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let alice: TestUser;
  let fast: number;
  let slow: number;
  let quotaData: QuotaDataRepository;
  let channelStats: ChannelStatsRepository;
  const get = (as: TestUser, url: string) => testApp.app.inject({ method: 'GET', url, headers: as.headers }).then((response) => response.json());
  const log = (fields: Record<string, unknown>) => ({
    user_id: alice.id,
    username: 'alice',
    type: LogType.consume,
    model_name: 'gpt-4o',
    quota: 100,
    prompt_tokens: 10,
    completion_tokens: 5,
    created_at: now,
    ...fields,
  });
  const range = `start_timestamp=${hour - 7200}&end_timestamp=${now}`;

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    alice = await createTestUser(testApp, { username: 'alice' });
    fast = await seedChannel(testApp, { name: 'fast-upstream', key: 'k1', baseUrl: 'http://127.0.0.1:9', models: ['gpt-4o'] });
    slow = await seedChannel(testApp, { name: 'slow-upstream', key: 'k2', baseUrl: 'http://127.0.0.1:9', models: ['gpt-4o'] });
    quotaData = new QuotaDataRepository(testApp.context.database.db, testApp.context.logDatabase.db);
    channelStats = new ChannelStatsRepository(testApp.context.logDatabase.db);
  });
  afterAll(async () => testApp.close());

  it('shows usage the aggregation has not counted yet, and counts every log once after it runs', async () => {
    await testApp.context.logWriter.recordMany([log({ created_at: hour - 3600 + 5 }), log({ quota: 300 })]);
    await aggregateQuotaData(quotaData, await quotaData.maxLogId(), now);
    // Written after the aggregation ran: only the logs table has it so far.
    await testApp.context.logWriter.recordMany([log({ quota: 7, model_name: 'o3' }), log({ quota: 20 })]);
    const expected = [
      { user_id: alice.id, username: 'alice', model_name: 'gpt-4o', created_at: hour - 3600, token_used: 15, count: 1, quota: 100 },
      { user_id: alice.id, username: 'alice', model_name: 'gpt-4o', created_at: hour, token_used: 30, count: 2, quota: 320 },
      { user_id: alice.id, username: 'alice', model_name: 'o3', created_at: hour, token_used: 15, count: 1, quota: 7 },
    ];
    const byModel = (rows: Array<{ created_at: number; model_name: string }>) => [...rows].sort((a, b) => a.created_at - b.created_at || a.model_name.localeCompare(b.model_name));
    expect(byModel((await get(root, `/api/data/?${range}`)).data)).toEqual(expected);
    expect(byModel((await get(alice, `/api/data/self?${range}`)).data)).toEqual(expected);
    expect((await get(root, `/api/data/users?${range}`)).data).toEqual([
      { username: 'alice', created_at: hour - 3600, token_used: 15, count: 1, quota: 100 },
      { username: 'alice', created_at: hour, token_used: 45, count: 3, quota: 327 },
    ]);

    await aggregateQuotaData(quotaData, await quotaData.maxLogId(), now);
    expect(byModel((await get(root, `/api/data/?${range}`)).data)).toEqual(expected);
  });

  it('gives administrators calls, errors, cost and latency percentiles per channel, live', async () => {
    await testApp.context.logDatabase.db.deleteFrom('logs').execute();
    // The fast channel's calls carry their milliseconds (as the relay writes them); the slow one's are older logs in whole seconds.
    const fastCalls = Array.from({ length: 20 }, (_, index) =>
      log({ channel_id: fast, use_time: index < 18 ? 0 : 4, quota: 10, other: JSON.stringify({ frt: 5, use_time_ms: index < 18 ? 180 : 3_600 }) }),
    );
    const slowCalls = Array.from({ length: 10 }, (_, index) => log({ channel_id: slow, use_time: 10 + index * 5, quota: 50, created_at: hour - 3600 + index }));
    const failures = [
      log({ type: LogType.error, channel_id: slow, use_time: 30, quota: 0 }),
      log({ type: LogType.error, channel_id: slow, use_time: 1, quota: 0 }),
      log({ type: LogType.error, channel_id: 0, use_time: 0, quota: 0 }),
    ];
    await testApp.context.logWriter.recordMany([...slowCalls, ...fastCalls.slice(0, 10)]);
    // The first part rolled up, the rest only in the logs table.
    await aggregateLogsAfterCursor(channelStats, await channelStats.maxLogId(), now);
    await testApp.context.logWriter.recordMany([...fastCalls.slice(10), ...failures]);
    const expected = [
      // 180 ms falls under 200 ms, 3.6 s under 4 s; the seconds fields round the bound up.
      {
        ...{ channel_id: fast, channel_name: 'fast-upstream', calls: 20, errors: 0, quota: 200 },
        ...{ latency_p50: 1, latency_p90: 1, latency_p99: 4, latency_p50_ms: 200, latency_p90_ms: 200, latency_p99_ms: 4_000 },
      },
      // 10, 15, … 55 s fall in the buckets 10, 15, 20, 25, 30, 40, 40, 50, 50, 60.
      {
        ...{ channel_id: slow, channel_name: 'slow-upstream', calls: 12, errors: 2, quota: 500 },
        ...{ latency_p50: 30, latency_p90: 50, latency_p99: 60, latency_p50_ms: 30_000, latency_p90_ms: 50_000, latency_p99_ms: 60_000 },
      },
      {
        ...{ channel_id: 0, channel_name: '', calls: 1, errors: 1, quota: 0 },
        ...{ latency_p50: null, latency_p90: null, latency_p99: null, latency_p50_ms: null, latency_p90_ms: null, latency_p99_ms: null },
      },
    ];
    const answer = await get(root, `/api/data/channels?${range}`);
    expect(answer.success).toBe(true);
    expect(answer.data).toEqual(expected);

    await aggregateLogsAfterCursor(channelStats, await channelStats.maxLogId(), now);
    expect((await get(root, `/api/data/channels/?${range}`)).data).toEqual(expected);
    // Only the current hour: the slow channel's answered calls were the hour before.
    const current = await get(root, `/api/data/channels?start_timestamp=${hour}&end_timestamp=${now}`);
    expect(current.data.find((row: { channel_id: number }) => row.channel_id === slow)).toMatchObject({ calls: 2, errors: 2, quota: 0, latency_p50: null });
  });

  it('keeps the per-channel view for administrators', async () => {
    const refused = await get(alice, `/api/data/channels?${range}`);
    expect(refused.success).toBe(false);
  });
});
