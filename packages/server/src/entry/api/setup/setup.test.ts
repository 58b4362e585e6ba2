import { Role } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../../core/platform/password-hasher.ts';
import { createTestApp, createTestUser, rootUser, sessionHeaders, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

describe.each(testDatabases())('first-run setup on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  const state = async () => (await testApp.app.inject({ method: 'GET', url: '/api/setup' })).json();
  const post = (payload: Record<string, unknown>, headers: Record<string, string> = root.headers, language = 'zh') =>
    testApp.app.inject({ method: 'POST', url: '/api/setup', headers: { ...headers, 'accept-language': language }, payload });
  const rootRow = () =>
    testApp.context.database.db.selectFrom('users').select(['username', 'password']).where('role', '=', Role.root).executeTakeFirstOrThrow();
  const valid = { username: 'owner', password: 'a-long-secret', confirmPassword: 'a-long-secret', SelfUseModeEnabled: true };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => testApp.close());

  it('is pending on a new database, in new-api shape, for anyone to read', async () => {
    expect(await state()).toEqual({ success: true, message: '', data: { status: false, root_init: true, database_type: database.dialect } });
  });

  it('is root only, and refuses bad input in the caller language changing nothing', async () => {
    const admin = await createTestUser(testApp, { role: Role.admin });
    expect((await post(valid, admin.headers)).json().success).toBe(false);
    expect((await post(valid, {})).json().success).toBe(false);

    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ ...valid, username: 'thirteen-long' }, '用户名长度不能超过12个字符', 'The username cannot be longer than 12 characters'],
      [{ ...valid, confirmPassword: 'another-secret' }, '两次输入的密码不一致', 'The two passwords do not match'],
      [{ ...valid, password: 'short', confirmPassword: 'short' }, '密码长度至少为8个字符', 'The password must be at least 8 characters long'],
    ];
    for (const [payload, zh, en] of refusals) {
      expect((await post(payload)).json()).toMatchObject({ success: false, message: zh });
      expect((await post(payload, root.headers, 'en')).json()).toMatchObject({ success: false, message: en });
    }
    expect((await post({ password: 'x' })).json().success).toBe(false);
    expect((await state()).data.status).toBe(false);
    const row = await rootRow();
    expect(row.username).toBe('root');
    expect(await verifyPassword('123456', row.password)).toBe(true);
    expect(testApp.context.options.getBoolean('SelfUseModeEnabled')).toBe(false);
  });

  it("sets root's name, password and use mode once, ending root's other sessions", async () => {
    const otherSession = await sessionHeaders(testApp, root.id);
    const answer = (await post(valid, root.headers, 'en')).json();
    expect(answer).toEqual({ success: true, message: 'The system is set up' });
    expect((await state()).data.status).toBe(true);
    const row = await rootRow();
    expect(row.username).toBe('owner');
    expect(await verifyPassword('a-long-secret', row.password)).toBe(true);
    expect(testApp.context.options.getBoolean('SelfUseModeEnabled')).toBe(true);
    // The session that did it stays; any other one of root's ends.
    expect((await testApp.app.inject({ method: 'GET', url: '/api/user/self', headers: root.headers })).json().success).toBe(true);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/user/self', headers: otherSession })).json().success).toBe(false);

    const again = (await post({ ...valid, username: 'again', SelfUseModeEnabled: false })).json();
    expect(again).toMatchObject({ success: false, message: '系统已经初始化完成' });
    expect((await rootRow()).username).toBe('owner');
    expect(testApp.context.options.getBoolean('SelfUseModeEnabled')).toBe(true);
  });

  it('counts a database from before setups existed as set up (new-api reads it so)', async () => {
    await testApp.context.database.db.deleteFrom('setups').execute();
    expect((await state()).data.status).toBe(true);
  });
});
