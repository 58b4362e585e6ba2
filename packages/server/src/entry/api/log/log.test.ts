import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { logHourlyRepositories } from './log-hourly.repository.ts';
import { rollUpLogs } from './log-hourly-rollup.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

const now = 1_760_000_000;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };

describe.each(testDatabases())('logs on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: number;

  const get = (as: TestUser, url: string) =>
    testApp.app.inject({ method: 'GET', url, headers: { ...as.headers, 'accept-language': 'en' } }).then((response) => response.json());

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    alice = await createTestUser(testApp, { username: 'alice' });
    bob = await createTestUser(testApp, { username: 'bob' });
    const created = await testApp.app.inject({
      method: 'POST',
      url: '/api/channel/',
      headers: root.headers,
      payload: { type: 1, name: 'east', key: 'k', models: 'gpt-4o', group: 'default' },
    });
    channelId = created.json().data[0];
    await testApp.context.logDatabase.db.deleteFrom('logs').execute();
    const consume = (user: TestUser, fields: Record<string, unknown>) => ({
      user_id: user.id,
      username: user.username,
      type: LogType.consume,
      token_name: 'main',
      model_name: 'gpt-4o',
      group: 'default',
      channel_id: channelId,
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 5,
      other: JSON.stringify({ model_ratio: 1.25, admin_info: { use_channel: [channelId] } }),
      ...fields,
    });
    await testApp.context.logWriter.recordMany([
      consume(alice, { created_at: now - 7200 }),
      consume(alice, { created_at: now - 3600, model_name: 'o3', quota: 300 }),
      consume(alice, { created_at: now - 30, token_name: 'ci', quota: 50, prompt_tokens: 100, completion_tokens: 20 }),
      consume(bob, { created_at: now - 10, group: 'vip', channel_id: 0, quota: 1000 }),
      { user_id: alice.id, username: 'alice', type: LogType.topup, created_at: now - 20, quota: 500000, content: '通过兑换码充值' },
      { user_id: root.id, username: 'root', type: LogType.manage, created_at: now - 5, content: 'admin did something' },
    ]);
  });
  afterAll(async () => testApp.close());

  it('pages every user log newest first from page 1 for administrators', async () => {
    const first = await get(root, '/api/log/?p=1&page_size=4');
    expect(first.data).toMatchObject({ page: 1, page_size: 4, total: 6 });
    expect(first.data.items).toHaveLength(4);
    const second = await get(root, '/api/log/?p=2&page_size=4');
    expect(second.data.items).toHaveLength(2);
    const times = [...first.data.items, ...second.data.items].map((item: { created_at: number }) => item.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(first.data.items[0]).toMatchObject({ username: 'root', type: LogType.manage });
    const item = first.data.items.find((log: { username: string }) => log.username === 'bob');
    expect(item).toMatchObject({ type: 2, quota: 1000, group: 'vip', channel: 0, is_stream: false });
    const aliceItem = second.data.items.find((log: { model_name: string }) => log.model_name === 'gpt-4o');
    expect(aliceItem).toMatchObject({ channel: channelId, channel_name: 'east' });
    expect(JSON.parse(aliceItem.other).admin_info).toEqual({ use_channel: [channelId] });
  });

  it('filters by type, username, token, model, channel, group and time', async () => {
    const total = async (query: string) => (await get(root, `/api/log/?${query}`)).data.total;
    expect(await total('type=2')).toBe(4);
    expect(await total('type=0')).toBe(6);
    expect(await total('type=1')).toBe(1);
    expect(await total('username=alice')).toBe(4);
    expect(await total('username=alice&type=2&token_name=ci')).toBe(1);
    expect(await total('model_name=o3')).toBe(1);
    expect(await total(`channel=${channelId}`)).toBe(3);
    expect(await total('group=vip')).toBe(1);
    expect(await total(`start_timestamp=${now - 3600}&end_timestamp=${now - 20}`)).toBe(3);
    expect(await total('username=nobody')).toBe(0);
  });

  it('shows a user only their own logs, without channel or administrator details', async () => {
    const mine = await get(alice, '/api/log/self/?p=1&page_size=10&username=bob&channel=999');
    expect(mine.data.total).toBe(4);
    expect(mine.data.items.every((log: { user_id: number }) => log.user_id === alice.id)).toBe(true);
    for (const log of mine.data.items) {
      expect(log).not.toHaveProperty('channel');
      expect(log).not.toHaveProperty('channel_name');
      expect(log.other).not.toContain('admin_info');
    }
    expect((await get(alice, '/api/log/self?type=2&model_name=o3')).data.total).toBe(1);
    const refused = await testApp.app.inject({ method: 'GET', url: '/api/log/', headers: alice.headers });
    expect(refused.statusCode).toBe(403);
  });

  it('answers consumption stats: quota over the filters, rpm and tpm over the last minute', async () => {
    expect((await get(root, '/api/log/stat?type=0')).data).toEqual({ quota: 1450, rpm: 2, tpm: 135 });
    expect((await get(root, '/api/log/stat?username=alice')).data).toEqual({ quota: 450, rpm: 1, tpm: 120 });
    expect((await get(root, `/api/log/stat?start_timestamp=${now - 4000}&end_timestamp=${now - 1000}`)).data).toEqual({ quota: 300, rpm: 0, tpm: 0 });
    expect((await get(alice, '/api/log/self/stat?username=bob')).data).toEqual({ quota: 450, rpm: 1, tpm: 120 });
    expect((await get(bob, '/api/log/self/stat?type=1')).data).toEqual({ quota: 1000, rpm: 1, tpm: 15 });
  });

  it('answers the same totals and stats from the roll-ups, with newer logs on top', async () => {
    const queries = [
      '/api/log/?type=0',
      '/api/log/?type=2',
      '/api/log/?model_name=o3',
      `/api/log/?start_timestamp=${now - 5 * 3600 - 17}&end_timestamp=${now + 3600}`,
      '/api/log/stat?type=0',
      '/api/log/stat?model_name=gpt-4o',
      `/api/log/stat?start_timestamp=${now - 4 * 3600 + 5}`,
      // A user, with a token name, a type or a model: the daily per-user roll-ups (0036, 0037).
      '/api/log/?username=alice',
      '/api/log/?username=alice&model_name=o3',
      '/api/log/stat?username=alice&model_name=gpt-4o',
      '/api/log/?username=alice&token_name=ci',
      '/api/log/stat?username=alice&token_name=main',
      '/api/log/?username=bob&type=2',
    ];
    const answers = async () =>
      Promise.all(
        queries.map(async (url) => {
          const body = await get(root, url);
          return url.includes('stat') ? body.data : body.data.total;
        }),
      );
    const before = await answers();
    const [byModel, , byUserToken] = logHourlyRepositories(testApp.context.logDatabase.db, testApp.context.logDatabase.dialect);
    expect(await rollUpLogs(byModel, await byModel.maxLogId(), now)).toBeGreaterThan(0);
    expect(await rollUpLogs(byUserToken, await byUserToken.maxLogId(), now)).toBeGreaterThan(0);
    for (const table of ['switchboard_log_hourly', 'switchboard_log_daily_user_token', 'switchboard_log_daily_user_model'] as const)
      expect(await testApp.context.logDatabase.db.selectFrom(table).selectAll().execute(), table).not.toHaveLength(0);
    expect(await answers()).toEqual(before);
    await Promise.all([rollUpLogs(byModel, await byModel.maxLogId(), now), rollUpLogs(byModel, await byModel.maxLogId(), now)]);
    await Promise.all([rollUpLogs(byUserToken, await byUserToken.maxLogId(), now), rollUpLogs(byUserToken, await byUserToken.maxLogId(), now)]);
    expect(await answers()).toEqual(before);
  });

  it('purges logs before a time and reports the count', async () => {
    const headers = { ...root.headers, 'accept-language': 'en' };
    expect((await testApp.app.inject({ method: 'DELETE', url: '/api/log/', headers })).json()).toEqual({
      success: false,
      message: 'Please choose the time before which logs are cleared',
    });
    const purged = await testApp.app.inject({ method: 'DELETE', url: `/api/log/?target_timestamp=${now - 3000}`, headers });
    expect(purged.json()).toEqual({ success: true, message: '', data: 2 });
    expect((await get(root, '/api/log/')).data.total).toBe(4);
    expect((await get(root, '/api/log/stat?type=0')).data.quota).toBe(1050);
    expect((await get(root, `/api/log/stat?start_timestamp=${now - 10 * 3600}&end_timestamp=${now}`)).data.quota).toBe(1050);
  });
});
