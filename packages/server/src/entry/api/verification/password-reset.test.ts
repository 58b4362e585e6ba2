import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi } from '../user/testing/account-test-kit.ts';
import { startSmtpCatcher } from './testing/smtp-catcher.ts';

describe.each(testDatabases())('password reset by mail on $dialect', (database) => {
  let testApp: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    testApp = await createTestApp(database);
    const { options } = testApp.context;
    for (const [key, value] of Object.entries({
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
      SMTPAccount: 'mailer@gateway.test',
      SMTPToken: 'smtp-password',
      ServerAddress: 'https://gateway.test',
      SystemName: 'Gateway',
    })) {
      await options.set(key, value);
    }
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });

  async function userWithEmail(email: string) {
    const user = await createTestUser(testApp);
    await testApp.context.database.db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
    return user;
  }

  function linkIn(email: string): URL {
    const text = smtp.lastTo(email)?.text ?? '';
    const link = /href="([^"]+)"/.exec(text)?.[1]?.replaceAll('&#38;', '&') ?? '';
    return new URL(link);
  }

  it('refuses an address that is not registered, sending nothing', async () => {
    const before = smtp.mails.length;
    const answer = await callApi(testApp, 'GET', '/api/reset_password?email=nobody@gateway.test', { language: 'en' });
    expect(answer.body).toEqual({ success: false, message: 'This email address is not registered' });
    expect(smtp.mails.length).toBe(before);
  });

  it('mails a link; the token gives a generated password once, and every old session ends', async () => {
    const user = await userWithEmail('reset.me@gateway.test');
    expect((await callApi(testApp, 'GET', '/api/reset_password?email=reset.me@gateway.test')).body).toEqual({
      success: true,
      message: '重置邮件发送成功，请检查邮箱',
    });
    const mail = smtp.lastTo('reset.me@gateway.test');
    expect(mail?.from).toBe('mailer@gateway.test');
    expect(mail?.text).toContain('Gateway');
    const link = linkIn('reset.me@gateway.test');
    expect(`${link.origin}${link.pathname}`).toBe('https://gateway.test/user/reset');
    const email = link.searchParams.get('email') ?? '';
    const token = link.searchParams.get('token') ?? '';
    expect(email).toBe('reset.me@gateway.test');

    const wrong = await callApi(testApp, 'POST', '/api/user/reset', { body: { email, token: 'f'.repeat(32) } });
    expect(wrong.body).toEqual({ success: false, message: '重置链接非法或已过期' });
    const done = await callApi(testApp, 'POST', '/api/user/reset', { body: { email, token } });
    expect(done.body.success).toBe(true);
    const password = done.body.data as string;
    expect(password).toMatch(/^[0-9A-Za-z]{12}$/);
    expect((await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers })).status).toBe(401);
    expect((await callApi(testApp, 'POST', '/api/user/login', { body: { username: user.username, password } })).body.success).toBe(true);
    expect((await callApi(testApp, 'POST', '/api/user/login', { body: { username: user.username, password: user.password } })).body.success).toBe(false);

    const reused = await callApi(testApp, 'POST', '/api/user/reset', { body: { email, token } });
    expect(reused.body.message).toBe('重置链接非法或已过期');
  });

  it('explains when SMTP is not configured and lets the address retry at once', async () => {
    await userWithEmail('unconfigured@gateway.test');
    await testApp.context.options.set('SMTPServer', '');
    try {
      expect((await callApi(testApp, 'GET', '/api/reset_password?email=unconfigured@gateway.test')).body.message).toBe('管理员未配置 SMTP 服务，无法发送邮件');
    } finally {
      await testApp.context.options.set('SMTPServer', '127.0.0.1');
    }
    expect((await callApi(testApp, 'GET', '/api/reset_password?email=unconfigured@gateway.test')).body.success).toBe(true);
  });
});
