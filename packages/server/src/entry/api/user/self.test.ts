import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '@switchboard/contracts';
import { verifyPassword } from '../../../core/platform/password-hasher.ts';
import { createTestApp, createTestUser, rootUser, sessionHeaders, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi, logsOf, userRow } from './testing/account-test-kit.ts';

describe.each(testDatabases())('self service on $dialect', (database) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('returns the own profile without password or access token', async () => {
    const user = await createTestUser(testApp, { quota: 1234 });
    const answer = await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers });
    expect(answer.body.data).toMatchObject({ id: user.id, username: user.username, quota: 1234, role: Role.common, aff_history_quota: 0, DeletedAt: null });
    expect(answer.body.data).not.toHaveProperty('password');
    expect(answer.body.data).not.toHaveProperty('access_token');
  });

  it('updates display name and username, refusing invalid or taken names without changing anything', async () => {
    const user = await createTestUser(testApp);
    const other = await createTestUser(testApp);
    expect((await callApi(testApp, 'PUT', '/api/user/self', { headers: user.headers, body: { display_name: 'Shown Name' } })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).display_name).toBe('Shown Name');
    const tooLong = await callApi(testApp, 'PUT', '/api/user/self', { headers: user.headers, body: { username: 'abcdefghijklm' } });
    expect(tooLong.body).toEqual({ success: false, message: '用户名长度不能超过 12 个字符' });
    const taken = await callApi(testApp, 'PUT', '/api/user/self', {
      headers: user.headers,
      body: { username: other.username, display_name: 'Changed' },
      language: 'en',
    });
    expect(taken.body).toEqual({ success: false, message: 'This username is taken (possibly by a deregistered account)' });
    expect(await userRow(testApp, user.id)).toMatchObject({ username: user.username, display_name: 'Shown Name' });
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const user = await createTestUser(testApp);
    const otherSession = await sessionHeaders(testApp, user.id);
    const short = await callApi(testApp, 'PUT', '/api/user/self', { headers: user.headers, body: { password: 'short' } });
    expect(short.body).toEqual({ success: false, message: '密码长度不得小于 8 位！' });
    const long = await callApi(testApp, 'PUT', '/api/user/self', { headers: user.headers, body: { password: 'x'.repeat(21) } });
    expect(long.body.message).toBe('密码长度不得超过 20 位！');
    const wrongOriginal = await callApi(testApp, 'PUT', '/api/user/self', {
      headers: user.headers,
      body: { password: 'new-password-1', original_password: 'not-it-at-all' },
    });
    expect(wrongOriginal.body.message).toBe('原密码错误');
    expect(await verifyPassword(user.password, (await userRow(testApp, user.id)).password)).toBe(true);

    // new-api asks for the current password: a stolen session alone cannot change it.
    const noOriginal = await callApi(testApp, 'PUT', '/api/user/self', { headers: user.headers, body: { password: 'new-password-1' }, language: 'en' });
    expect(noOriginal.body).toEqual({ success: false, message: 'Enter your current password to change it' });
    expect(await verifyPassword(user.password, (await userRow(testApp, user.id)).password)).toBe(true);

    const changed = await callApi(testApp, 'PUT', '/api/user/self', {
      headers: user.headers,
      body: { password: 'new-password-1', original_password: user.password },
    });
    expect(changed.body.success).toBe(true);
    expect(await verifyPassword('new-password-1', (await userRow(testApp, user.id)).password)).toBe(true);
    expect((await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers })).body.success).toBe(true);
    expect((await callApi(testApp, 'GET', '/api/user/self', { headers: otherSession })).status).toBe(401);
  });

  it('lets an account without a password (made by a third-party login) set its first one without an original', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.database.db.updateTable('users').set({ password: '' }).where('id', '=', user.id).execute();
    expect((await callApi(testApp, 'PUT', '/api/user/self', { headers: user.headers, body: { password: 'first-password' } })).body.success).toBe(true);
    expect(await verifyPassword('first-password', (await userRow(testApp, user.id)).password)).toBe(true);
  });

  it('deregisters the own account and ends its sessions; root cannot', async () => {
    const root = await rootUser(testApp);
    const refused = await callApi(testApp, 'DELETE', '/api/user/self', { headers: root.headers });
    expect(refused.body).toEqual({ success: false, message: '不能删除超级管理员账户' });
    expect((await userRow(testApp, root.id)).deleted_at).toBeNull();

    const user = await createTestUser(testApp);
    expect((await callApi(testApp, 'DELETE', '/api/user/self', { headers: user.headers })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).deleted_at).not.toBeNull();
    expect((await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers })).status).toBe(401);
  });

  it('gives an invitation code and transfers invitation earnings atomically, at least one QuotaPerUnit', async () => {
    const user = await createTestUser(testApp, { quota: 100 });
    const code = (await callApi(testApp, 'GET', '/api/user/aff', { headers: user.headers })).body.data;
    expect(code).toBe((await userRow(testApp, user.id)).aff_code);
    await testApp.context.database.db.updateTable('users').set({ aff_quota: 800_000 }).where('id', '=', user.id).execute();

    const belowMinimum = await callApi(testApp, 'POST', '/api/user/aff_transfer', { headers: user.headers, body: { quota: 499_999 } });
    expect(belowMinimum.body).toEqual({ success: false, message: '划转金额最低为 $1.00' });
    const tooMuch = await callApi(testApp, 'POST', '/api/user/aff_transfer', { headers: user.headers, body: { quota: 900_000 }, language: 'en' });
    expect(tooMuch.body).toEqual({ success: false, message: 'Not enough invitation earnings' });
    expect(await userRow(testApp, user.id)).toMatchObject({ quota: 100, aff_quota: 800_000 });

    const results = await Promise.all(
      [500_000, 500_000].map((quota) => callApi(testApp, 'POST', '/api/user/aff_transfer', { headers: user.headers, body: { quota } })),
    );
    expect(results.filter((result) => result.body.success)).toHaveLength(1);
    expect(await userRow(testApp, user.id)).toMatchObject({ quota: 500_100, aff_quota: 300_000 });
    const logs = await logsOf(testApp, user.id);
    expect(logs.map((log) => ({ type: log.type, quota: log.quota }))).toEqual([{ type: LogType.system, quota: 500_000 }]);
  });

  it('lists the usable groups (with the own group) and the models enabled in them', async () => {
    const user = await createTestUser(testApp, { group: 'team-x' });
    const { db } = testApp.context.database;
    await db
      .insertInto('abilities')
      .values([
        { group: 'default', model: 'gpt-4o', channel_id: 1, enabled: 1, priority: 0, weight: 0, tag: null },
        { group: 'team-x', model: 'claude-x', channel_id: 1, enabled: 1, priority: 0, weight: 0, tag: null },
        { group: 'team-x', model: 'disabled-model', channel_id: 2, enabled: 0, priority: 0, weight: 0, tag: null },
        { group: 'hidden', model: 'secret-model', channel_id: 3, enabled: 1, priority: 0, weight: 0, tag: null },
      ])
      .execute();
    const groups = await callApi(testApp, 'GET', '/api/user/self/groups', { headers: user.headers });
    expect(groups.body.data).toEqual({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 1, desc: 'vip分组' },
      'team-x': { ratio: 1, desc: '用户分组' },
    });
    const models = await callApi(testApp, 'GET', '/api/user/models', { headers: user.headers });
    expect(models.body.data).toEqual(['claude-x', 'gpt-4o']);
  });
});
