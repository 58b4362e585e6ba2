import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserStatus } from '@switchboard/contracts';
import { buildApp } from '../../../app.ts';
import { createLogger } from '../../../core/platform/logger.ts';
import { openDependencies } from '../../../open-dependencies.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi, sessionFrom, userRow } from '../user/testing/account-test-kit.ts';

describe.each(testDatabases())('sessions and password login on $dialect', (database) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const login = (body: unknown, language?: 'en' | 'zh') => callApi(testApp, 'POST', '/api/user/login', { body, ...(language ? { language } : {}) });

  it('logs in by username with a 30-day HttpOnly SameSite=Strict signed cookie', async () => {
    const user = await createTestUser(testApp);
    const answer = await login({ username: user.username, password: user.password });
    expect(answer.body).toMatchObject({ success: true, data: { id: user.id, username: user.username, role: 1, status: 1, group: 'default' } });
    expect(answer.body.data.password).toBeUndefined();
    const cookie = answer.cookies.find((candidate) => candidate.name === 'session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 30 * 24 * 3600 });
    const self = await callApi(testApp, 'GET', '/api/user/self', { headers: sessionFrom(answer, user.id) });
    expect(self.body).toMatchObject({ success: true, data: { id: user.id } });
    expect((await userRow(testApp, user.id)).last_login_at).toBeGreaterThan(0);
  });

  it('logs in by email and refuses a New-Api-User that is not the session user', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.database.db
      .updateTable('users')
      .set({ email: `${user.username}@example.com` })
      .where('id', '=', user.id)
      .execute();
    const answer = await login({ username: `${user.username}@example.com`, password: user.password });
    expect(answer.body.success).toBe(true);
    const mismatch = await callApi(testApp, 'GET', '/api/user/self', { headers: { ...sessionFrom(answer, user.id), 'new-api-user': String(user.id + 1000) } });
    expect(mismatch.status).toBe(401);
    expect(mismatch.body.success).toBe(false);
  });

  it('refuses wrong passwords, empty fields, banned and deregistered users in the caller language', async () => {
    const user = await createTestUser(testApp);
    expect((await login({ username: user.username, password: 'wrong-password' })).body).toEqual({
      success: false,
      message: '用户名或密码错误，或用户已被封禁',
    });
    expect((await login({ username: user.username, password: 'wrong-password' }, 'en')).body.message).toBe(
      'Username or password is incorrect, or user has been banned',
    );
    expect((await login({ username: '', password: '' })).body.message).toBe('请输入用户名和密码！');
    const banned = await createTestUser(testApp, { status: UserStatus.disabled });
    const bannedAnswer = await login({ username: banned.username, password: banned.password });
    expect(bannedAnswer.body).toEqual({ success: false, message: '用户已被封禁' });
    expect(bannedAnswer.cookies).toHaveLength(0);
    const gone = await createTestUser(testApp);
    await callApi(testApp, 'DELETE', '/api/user/self', { headers: gone.headers });
    expect((await login({ username: gone.username, password: gone.password })).body.message).toBe('用户名或密码错误，或用户已被封禁');
  });

  it('refuses password login when the administrator turned it off', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.options.set('PasswordLoginEnabled', 'false');
    try {
      const answer = await login({ username: user.username, password: user.password });
      expect(answer.body).toEqual({ success: false, message: '管理员关闭了密码登录' });
      expect(answer.cookies).toHaveLength(0);
    } finally {
      await testApp.context.options.set('PasswordLoginEnabled', 'true');
    }
  });

  it('rate-limits repeated failures per username, even with the right password afterwards', async () => {
    const user = await createTestUser(testApp);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await login({ username: user.username, password: `wrong-${attempt}` })).status).toBe(200);
    }
    const blocked = await login({ username: user.username, password: user.password }, 'en');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ success: false, message: 'Too many requests, try again later' });
  });

  it('accepts a bcrypt hash from an imported database and rehashes it with argon2id', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.database.db
      .updateTable('users')
      .set({ password: bcrypt.hashSync('legacy-pass1', 4) })
      .where('id', '=', user.id)
      .execute();
    expect((await login({ username: user.username, password: 'legacy-pass1' })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).password).toMatch(/^\$argon2id\$/);
    expect((await login({ username: user.username, password: 'legacy-pass1' })).body.success).toBe(true);
  });

  it('accepts the system access token in Authorization, raw or as Bearer, and only the newest one', async () => {
    const user = await createTestUser(testApp);
    const first = (await callApi(testApp, 'GET', '/api/user/token', { headers: user.headers })).body.data as string;
    expect(first).toMatch(/^[0-9A-Za-z]{32}$/);
    const byToken = await callApi(testApp, 'GET', '/api/user/self', { headers: { authorization: first, 'new-api-user': String(user.id) } });
    expect(byToken.body.data.id).toBe(user.id);
    const second = (await callApi(testApp, 'GET', '/api/user/token', { headers: user.headers })).body.data as string;
    const bearer = await callApi(testApp, 'GET', '/api/user/self', { headers: { authorization: `Bearer ${second}`, 'new-api-user': String(user.id) } });
    expect(bearer.body.success).toBe(true);
    const stale = await callApi(testApp, 'GET', '/api/user/self', { headers: { authorization: first, 'new-api-user': String(user.id) } });
    expect(stale.status).toBe(401);
  });

  it('shares a login between instances and a logout on one ends it on the other', async () => {
    const dependencies = await openDependencies(testApp.config, createLogger('silent'));
    const other = await buildApp(dependencies);
    try {
      const user = await createTestUser(testApp);
      const answer = await login({ username: user.username, password: user.password });
      const headers = sessionFrom(answer, user.id);
      expect((await other.inject({ method: 'GET', url: '/api/user/self', headers })).json().success).toBe(true);
      expect((await callApi(testApp, 'GET', '/api/user/logout', { headers })).body.success).toBe(true);
      const after = await other.inject({ method: 'GET', url: '/api/user/self', headers });
      expect(after.statusCode).toBe(401);
      expect(after.json()).toEqual({ success: false, message: '未登录或登录已过期，请重新登录' });
    } finally {
      await other.close();
      await dependencies.close();
    }
  });
});
