import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role, UserStatus } from '@switchboard/contracts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { verifyPassword } from '../../../core/platform/password-hasher.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi, logsOf, userRow } from './testing/account-test-kit.ts';

describe.each(testDatabases())('user management on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    admin = await createTestUser(testApp, { role: Role.admin });
  });
  afterAll(async () => {
    await testApp.close();
  });

  const manage = (actor: TestUser, id: number, action: string) =>
    callApi(testApp, 'POST', '/api/user/manage', { headers: actor.headers, body: { id, action } });

  it('lists from page 0 newest first, with deregistered users tagged and no secrets', async () => {
    const gone = await createTestUser(testApp);
    await manage(admin, gone.id, 'delete');
    const page = await callApi(testApp, 'GET', '/api/user/?p=0&page_size=2', { headers: admin.headers });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.data[0]).toMatchObject({ id: gone.id });
    expect(page.body.data[0].DeletedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(page.body.data[0]).not.toHaveProperty('password');
    const next = await callApi(testApp, 'GET', '/api/user/?p=1&page_size=2', { headers: admin.headers });
    expect(next.body.data[0].id).toBeLessThan(page.body.data[1].id);
  });

  it('searches by id, name prefix and group, treating LIKE wildcards literally', async () => {
    const target = await createTestUser(testApp, { username: 'findme_1', group: 'vip' });
    await createTestUser(testApp, { username: 'findmex1' });
    const byName = await callApi(testApp, 'GET', '/api/user/search?keyword=%20findme_', { headers: admin.headers });
    expect(byName.body.data.map((user: { id: number }) => user.id)).toEqual([target.id]);
    const byGroup = await callApi(testApp, 'GET', '/api/user/search?keyword=findme&group=vip', { headers: admin.headers });
    expect(byGroup.body.data.map((user: { id: number }) => user.id)).toEqual([target.id]);
    const byId = await callApi(testApp, 'GET', `/api/user/search?keyword=${target.id}`, { headers: admin.headers });
    expect(byId.body.data.map((user: { id: number }) => user.id)).toContain(target.id);
  });

  it('lets nobody read a user of the same or higher role', async () => {
    const other = await createTestUser(testApp, { role: Role.admin });
    expect((await callApi(testApp, 'GET', `/api/user/${other.id}`, { headers: admin.headers })).body).toEqual({
      success: false,
      message: '无权获取同级或更高等级用户的信息',
    });
    expect((await callApi(testApp, 'GET', `/api/user/${root.id}`, { headers: admin.headers })).body.success).toBe(false);
    const byRoot = await callApi(testApp, 'GET', `/api/user/${other.id}`, { headers: root.headers });
    expect(byRoot.body.data).toMatchObject({ id: other.id, role: Role.admin });
    expect(byRoot.body.data).not.toHaveProperty('password');
    expect((await callApi(testApp, 'GET', '/api/user/99999999', { headers: root.headers })).body.message).toBe('用户不存在');
  });

  it('creates users below its own role, with the new-user quota and its log row', async () => {
    await testApp.context.options.set('QuotaForNewUser', '250');
    try {
      const refused = await callApi(testApp, 'POST', '/api/user/', {
        headers: admin.headers,
        body: { username: 'newadmin', password: 'password123', role: Role.admin },
      });
      expect(refused.body).toEqual({ success: false, message: '无法创建权限大于等于自己的用户' });
      const badPassword = await callApi(testApp, 'POST', '/api/user/', { headers: admin.headers, body: { username: 'newuser', password: 'short' } });
      expect(badPassword.body.message).toBe('密码长度不得小于 8 位！');
      const noName = await callApi(testApp, 'POST', '/api/user/', { headers: admin.headers, body: { username: '', password: 'password123' }, language: 'en' });
      expect(noName.body.message).toBe('The username is required');
      expect(await testApp.context.database.db.selectFrom('users').select('id').where('username', 'in', ['newadmin', 'newuser']).execute()).toEqual([]);
      expect(
        (
          await callApi(testApp, 'POST', '/api/user/', {
            headers: admin.headers,
            body: { username: 'created1', password: 'password123', display_name: 'Created' },
          })
        ).body.success,
      ).toBe(true);
      const created = await testApp.context.database.db.selectFrom('users').selectAll().where('username', '=', 'created1').executeTakeFirstOrThrow();
      expect(created).toMatchObject({ role: Role.common, quota: 250, display_name: 'Created' });
      expect(await verifyPassword('password123', created.password)).toBe(true);
      expect((await logsOf(testApp, created.id)).map((log) => log.type)).toEqual([LogType.system]);
      const duplicate = await callApi(testApp, 'POST', '/api/user/', { headers: root.headers, body: { username: 'created1', password: 'password123' } });
      expect(duplicate.body.message).toBe('用户名已存在，或已注销');
      expect(
        (await callApi(testApp, 'POST', '/api/user/', { headers: root.headers, body: { username: 'created2', password: 'password123', role: Role.admin } }))
          .body.success,
      ).toBe(true);
    } finally {
      await testApp.context.options.set('QuotaForNewUser', '0');
    }
  });

  it('updates group, password and quota by an atomic adjustment with a manage log; never a higher role', async () => {
    const user = await createTestUser(testApp, { quota: 1000 });
    expect((await callApi(testApp, 'PUT', '/api/user/', { headers: admin.headers, body: { id: user.id, group: 'vip', quota_delta: -300 } })).body.success).toBe(
      true,
    );
    expect(await userRow(testApp, user.id)).toMatchObject({ group: 'vip', quota: 700 });
    expect((await callApi(testApp, 'PUT', '/api/user/', { headers: admin.headers, body: { id: user.id, quota: 5000 } })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).quota).toBe(5000);
    const logs = await logsOf(testApp, user.id);
    expect(logs.map((log) => [log.type, log.quota])).toEqual([
      [LogType.manage, -300],
      [LogType.manage, 4300],
    ]);

    const shortPassword = await callApi(testApp, 'PUT', '/api/user/', { headers: admin.headers, body: { id: user.id, password: 'short', group: 'default' } });
    expect(shortPassword.body.message).toBe('密码长度不得小于 8 位！');
    expect((await userRow(testApp, user.id)).group).toBe('vip');
    expect((await callApi(testApp, 'PUT', '/api/user/', { headers: admin.headers, body: { id: user.id, password: 'brand-new-pass' } })).body.success).toBe(
      true,
    );
    expect(await verifyPassword('brand-new-pass', (await userRow(testApp, user.id)).password)).toBe(true);
    expect((await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers })).status).toBe(401);

    const onRoot = await callApi(testApp, 'PUT', '/api/user/', { headers: admin.headers, body: { id: root.id, quota_delta: 5, display_name: 'Hacked' } });
    expect(onRoot.body).toEqual({ success: false, message: '无权更新同权限等级或更高权限等级的用户信息' });
    expect((await userRow(testApp, root.id)).display_name).toBe('Root User');
  });

  it('manages users by the role rules and answers the new role and status', async () => {
    const user = await createTestUser(testApp);
    const promoteByAdmin = await manage(admin, user.id, 'promote');
    expect(promoteByAdmin.body).toEqual({ success: false, message: '普通管理员用户无法提升其他用户为管理员' });
    expect((await userRow(testApp, user.id)).role).toBe(Role.common);

    expect((await manage(root, user.id, 'promote')).body.data).toEqual({ role: Role.admin, status: UserStatus.enabled });
    expect((await manage(admin, user.id, 'disable')).body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
    expect((await manage(root, user.id, 'demote')).body.data).toEqual({ role: Role.common, status: UserStatus.enabled });

    expect((await manage(admin, user.id, 'disable')).body.data).toEqual({ role: Role.common, status: UserStatus.disabled });
    expect((await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers })).status).toBe(401);
    expect((await manage(admin, user.id, 'enable')).body.data).toEqual({ role: Role.common, status: UserStatus.enabled });

    for (const [action, message] of [
      ['disable', '无法禁用超级管理员用户'],
      ['demote', '无法降级超级管理员用户'],
      ['delete', '无法删除超级管理员用户'],
    ] as const) {
      expect((await manage(root, root.id, action)).body).toEqual({ success: false, message });
    }
    expect(await userRow(testApp, root.id)).toMatchObject({ role: Role.root, status: UserStatus.enabled, deleted_at: null });
    expect((await manage(admin, root.id, 'disable')).body.message).toBe('无权更新同权限等级或更高权限等级的用户信息');
    expect(await manage(root, user.id, 'explode')).toMatchObject({ status: 400, body: { success: false, message: '无效的参数：action' } });

    expect((await manage(admin, user.id, 'delete')).body.data).toEqual({ role: Role.common, status: UserStatus.enabled });
    expect((await userRow(testApp, user.id)).deleted_at).not.toBeNull();
    expect((await manage(admin, user.id, 'enable')).body.message).toBe('用户不存在');
  });

  it('tells the other instances (the relay user cache) about every change, after the write', async () => {
    const user = await createTestUser(testApp);
    const seen: Array<{ id: string; status: number | undefined }> = [];
    testApp.context.bus.subscribe(changeTopics.users, (id) => {
      void userRow(testApp, Number(id)).then((row) => seen.push({ id, status: row.status }));
    });
    await manage(admin, user.id, 'disable');
    await callApi(testApp, 'PUT', '/api/user/', { headers: admin.headers, body: { id: user.id, quota_delta: 10 } });
    await expect.poll(() => seen.filter((entry) => entry.id === String(user.id)).length).toBe(2);
    expect(seen.find((entry) => entry.id === String(user.id))?.status).toBe(UserStatus.disabled);
  });

  it('deletes (deregisters) by id only below its own role', async () => {
    const user = await createTestUser(testApp);
    const other = await createTestUser(testApp, { role: Role.admin });
    expect((await callApi(testApp, 'DELETE', `/api/user/${other.id}`, { headers: admin.headers })).body.message).toBe('无权删除同权限等级或更高权限等级的用户');
    expect((await callApi(testApp, 'DELETE', `/api/user/${user.id}`, { headers: admin.headers })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).deleted_at).not.toBeNull();
    expect((await userRow(testApp, other.id)).deleted_at).toBeNull();
  });
});
