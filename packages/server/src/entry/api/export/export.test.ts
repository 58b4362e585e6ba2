import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import type { Clock } from '../../../core/platform/clock.ts';
import { seedChannel, seedToken } from '../../relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { parseCsv } from './testing/parse-csv.ts';

const now = 1_760_000_400;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };
/** More than two batches of 1,000, with many logs in one second so batch edges fall inside a second. */
const logCount = 2_345;

describe.each(testDatabases())('CSV exports on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let alice: TestUser;
  let channelId: number;
  let aliceToken: { key: string };

  const download = (as: TestUser, url: string, language = 'en') =>
    testApp.app.inject({ method: 'GET', url, headers: { ...as.headers, 'accept-language': language } });
  const rowsOf = (body: string) => {
    expect(body.startsWith('\uFEFF')).toBe(true);
    return parseCsv(body.slice(1));
  };

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    root = await rootUser(testApp);
    alice = await createTestUser(testApp, { username: 'alice' });
    channelId = await seedChannel(testApp, { name: 'upstream-a', key: 'sk-upstream-secret-never-exported', baseUrl: 'http://127.0.0.1:9', models: ['gpt-4o'] });
    aliceToken = await seedToken(testApp, alice.id, { name: '=cmd|calc' });
    await seedToken(testApp, root.id, { name: 'root-token' });
    const entries = Array.from({ length: logCount }, (_, index) => ({
      user_id: alice.id,
      username: 'alice',
      type: LogType.consume,
      token_name: 'main',
      group: 'vip',
      model_name: index % 5 === 0 ? 'o3' : 'gpt-4o',
      // 40 logs per second: every batch boundary falls inside a second.
      created_at: now - 86_400 + Math.floor(index / 40),
      quota: index,
      prompt_tokens: 10,
      completion_tokens: 5,
      channel_id: channelId,
      content: index === 7 ? '=HYPERLINK("http://evil","click"), then\na second line' : `row ${index}`,
    }));
    for (let start = 0; start < entries.length; start += 500) await testApp.context.logWriter.recordMany(entries.slice(start, start + 500));
    await testApp.context.logWriter.recordMany([{ user_id: root.id, username: 'root', type: LogType.topup, created_at: now, quota: 9, content: 'topped up' }]);
    await testApp.context.database.db
      .insertInto('redemptions')
      .values({
        user_id: root.id,
        key: 'code-0123456789abcdef',
        status: 1,
        name: 'Spring, "promo"',
        quota: 500,
        created_time: now,
        redeemed_time: 0,
        used_user_id: 0,
        expired_time: 0,
        deleted_at: null,
      })
      .execute();
  });
  afterAll(async () => testApp.close());

  it('exports every log matching the filters, newest first, as a download with English headers', async () => {
    const answer = await download(root, '/api/export/logs?type=2&utc_offset=480');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="logs-\d{8}-\d{6}\.csv"$/);
    const rows = rowsOf(answer.body);
    expect(rows[0]).toEqual([
      'ID',
      'Time',
      'Channel',
      'Channel name',
      'User',
      'Token',
      'Group',
      'Type',
      'Model',
      'Time taken (s)',
      'Stream',
      'Prompt',
      'Completion',
      'Cost',
      'Details',
      'IP',
      'Request ID',
    ]);
    const data = rows.slice(1);
    expect(data).toHaveLength(logCount);
    // Every log once, newest first (creation time, then id), across the batch boundaries.
    // The quota is the log's index, which grows with creation time and id.
    expect(data.map((row) => Number(row[13]))).toEqual(Array.from({ length: logCount }, (_, index) => logCount - 1 - index));
    expect(data[0]).toEqual([
      expect.stringMatching(/^\d+$/),
      '2025-10-08 17:00:58',
      String(channelId),
      'upstream-a',
      'alice',
      'main',
      'vip',
      'Consume',
      'gpt-4o',
      '0',
      'false',
      '10',
      '5',
      String(logCount - 1),
      `row ${logCount - 1}`,
      '',
      expect.any(String),
    ]);
    const injected = data.find((row) => row[13] === '7');
    expect(injected?.[14]).toBe('\'=HYPERLINK("http://evil","click"), then\na second line');
  });

  it('writes times at the reader offset', async () => {
    expect(rowsOf((await download(root, '/api/export/logs?type=4&start_timestamp=1&utc_offset=-300')).body)).toHaveLength(1);
    const utc = rowsOf((await download(root, '/api/export/logs?type=1')).body)[1]?.[1];
    const shifted = rowsOf((await download(root, '/api/export/logs?type=1&utc_offset=480')).body)[1]?.[1];
    expect(utc).toBe('2025-10-09 09:00:00');
    expect(shifted).toBe('2025-10-09 17:00:00');
  });

  it('applies the log page filters and gives a user only their own logs, without channel columns', async () => {
    const o3 = rowsOf((await download(root, '/api/export/logs?model_name=o3')).body).slice(1);
    expect(o3).toHaveLength(Math.ceil(logCount / 5));
    expect(o3.every((row) => row[8] === 'o3')).toBe(true);
    const mine = rowsOf((await download(alice, '/api/export/logs/self?username=root')).body);
    expect(mine[0]).not.toContain('Channel');
    expect(mine).toHaveLength(logCount + 1);
    expect(mine.slice(1).every((row) => row[2] === 'alice')).toBe(true);
  });

  it('writes the headers and names in Chinese when asked, by Accept-Language or lang', async () => {
    const byHeader = rowsOf((await download(root, '/api/export/logs?type=1', 'zh-CN')).body);
    expect(byHeader[0]?.slice(0, 3)).toEqual(['ID', '时间', '渠道']);
    expect(byHeader[1]?.[7]).toBe('充值');
    const byParameter = rowsOf((await download(root, '/api/export/users?lang=zh', 'en')).body);
    expect(byParameter[0]?.slice(0, 2)).toEqual(['ID', '用户名']);
  });

  it('exports users without secrets, channels without keys, codes with theirs', async () => {
    const users = await download(root, '/api/export/users');
    const userRows = rowsOf(users.body);
    expect(userRows.slice(1).map((row) => row[1])).toEqual(['root', 'alice']);
    expect(users.body).not.toMatch(/\$2[aby]\$/);
    const channels = await download(root, '/api/export/channels');
    expect(channels.body).not.toContain('upstream-secret');
    expect(rowsOf(channels.body)[1]?.slice(0, 2)).toEqual([String(channelId), 'upstream-a']);
    const codes = rowsOf((await download(root, '/api/export/redemptions')).body);
    expect(codes[1]?.slice(1, 3)).toEqual(['Spring, "promo"', 'code-0123456789abcdef']);
  });

  it("exports one's own tokens with the keys masked and defused names", async () => {
    const tokens = await download(alice, '/api/export/tokens');
    expect(tokens.body).not.toContain(aliceToken.key);
    const rows = rowsOf(tokens.body).slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.[1]).toBe("'=cmd|calc");
    expect(rows[0]?.[2]).toBe(`sk-${aliceToken.key.slice(0, 4)}**********${aliceToken.key.slice(-4)}`);
  });

  it('answers HEAD with the headers only', async () => {
    const head = await testApp.app.inject({ method: 'HEAD', url: '/api/export/users', headers: root.headers });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(head.body).toBe('');
  });

  it('refuses ordinary users the administrator exports and bad parameters', async () => {
    for (const url of ['/api/export/users', '/api/export/channels', '/api/export/redemptions', '/api/export/logs']) {
      const refused = await download(alice, url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ success: false });
    }
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/api/export/tokens' });
    expect(anonymous.statusCode).toBe(401);
    for (const query of ['lang=fr', 'utc_offset=abc', 'utc_offset=900']) {
      const refused = await download(root, `/api/export/users?${query}`);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ success: false });
    }
  });

  it("exports by username the log page's rows: the user's logs by id (older names too), none for a name no user has", async () => {
    // Last, as the users export above lists every user. Carol had another name when her first log was
    // written; a log another user wrote as "carol" is not hers.
    const renamed = await createTestUser(testApp, { username: 'carol' });
    await testApp.context.logWriter.recordMany([
      { user_id: renamed.id, username: 'carol-before', type: LogType.consume, created_at: now - 10, quota: 1, content: 'old name' },
      { user_id: renamed.id, username: 'carol', type: LogType.consume, created_at: now - 5, quota: 2, content: 'new name' },
      { user_id: root.id, username: 'carol', type: LogType.consume, created_at: now - 1, quota: 3, content: 'someone else' },
    ]);
    const exported = rowsOf((await download(root, '/api/export/logs?username=carol')).body).slice(1);
    const page = (await testApp.app.inject({ method: 'GET', url: '/api/log/?p=1&page_size=100&username=carol', headers: root.headers })).json().data;
    expect(exported.map((row) => Number(row[0]))).toEqual(page.items.map((item: { id: number }) => item.id));
    // The username column (after id, time, channel and channel name) as each log was written.
    expect(exported.map((row) => row[4])).toEqual(['carol', 'carol-before']);
    expect(rowsOf((await download(root, '/api/export/logs?username=nobody')).body)).toHaveLength(1);
  });
});
