import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startFakeHttpServer } from '../oauth/testing/fake-http-server.ts';
import { callApi, logsOf, movableClock } from '../user/testing/account-test-kit.ts';
import { startSmtpCatcher } from '../verification/testing/smtp-catcher.ts';

describe.each(testDatabases())('registration on $dialect', (database) => {
  let testApp: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;
  let turnstile: Awaited<ReturnType<typeof startFakeHttpServer>>;
  const clock = movableClock();

  beforeAll(async () => {
    smtp = await startSmtpCatcher();
    turnstile = await startFakeHttpServer({
      'POST /turnstile/v0/siteverify': (request) => ({
        json: { success: new URLSearchParams(request.body).get('response') === 'human-token', 'error-codes': [] },
      }),
    });
    testApp = await createTestApp(database, { TURNSTILE_VERIFY_URL: `${turnstile.url}/turnstile/v0/siteverify` }, clock);
    const { options } = testApp.context;
    for (const [key, value] of Object.entries({ SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port), SMTPFrom: 'noreply@gateway.test', SMTPAccount: '' }))
      await options.set(key, value);
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
    await turnstile.close();
  });
  beforeEach(async () => {
    const { options } = testApp.context;
    for (const [key, value] of Object.entries({
      RegisterEnabled: 'true',
      PasswordRegisterEnabled: 'true',
      EmailVerificationEnabled: 'false',
      TurnstileCheckEnabled: 'false',
      EmailDomainRestrictionEnabled: 'false',
      EmailAliasRestrictionEnabled: 'false',
      QuotaForNewUser: '0',
      QuotaForInviter: '0',
      QuotaForInvitee: '0',
    })) {
      await options.set(key, value);
    }
  });

  const register = (body: Record<string, unknown>, query = '', language?: 'en') =>
    callApi(testApp, 'POST', `/api/user/register${query}`, { body, ...(language ? { language } : {}) });
  const findUser = (username: string) => testApp.context.database.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();

  it('registers with username and password, granting QuotaForNewUser with a log row', async () => {
    await testApp.context.options.set('QuotaForNewUser', '1000');
    expect((await register({ username: 'alice01', password: 'password123', password2: 'password123' })).body).toEqual({ success: true, message: '' });
    const user = await findUser('alice01');
    expect(user).toMatchObject({ quota: 1000, role: 1, status: 1, group: 'default', display_name: 'alice01', inviter_id: 0 });
    expect(user?.aff_code).toMatch(/^[0-9A-Za-z]{4}$/);
    expect((await logsOf(testApp, user?.id ?? 0)).map((log) => [log.type, log.quota])).toEqual([[LogType.system, 1000]]);
    expect((await callApi(testApp, 'POST', '/api/user/login', { body: { username: 'alice01', password: 'password123' } })).body.success).toBe(true);
  });

  it("treats the nulls new-api's console sends (aff_code without an invite link) as absent fields", async () => {
    const body = { username: 'nulls01', password: 'password123', password2: null, email: null, verification_code: null, aff_code: null };
    expect((await register(body)).body).toEqual({ success: true, message: '' });
    expect(await findUser('nulls01')).toMatchObject({ inviter_id: 0, email: '' });
    expect((await register({ username: null, password: 'password123' })).body.message).toBe('用户名不能为空');

    await testApp.context.options.set('EmailVerificationEnabled', 'true');
    expect((await register({ ...body, username: 'nulls02' })).body.message).toBe('管理员开启了邮箱验证，请输入邮箱地址和验证码');
    expect(await findUser('nulls02')).toBeUndefined();

    const login = (loginBody: Record<string, unknown>) => callApi(testApp, 'POST', '/api/user/login', { body: loginBody });
    expect((await login({ username: 'nulls01', password: null })).body.message).toBe('请输入用户名和密码！');
    expect((await login({ username: null, password: 'password123' })).body.message).toBe('请输入用户名和密码！');
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['an empty username', { username: '', password: 'password123' }, '用户名不能为空'],
    ['a username over 12 characters', { username: 'abcdefghijklm', password: 'password123' }, '用户名长度不能超过 12 个字符'],
    ['a short password', { username: 'shortpw', password: 'short' }, '密码长度不得小于 8 位！'],
    ['an empty password', { username: 'emptypw', password: '' }, '密码长度不得小于 8 位！'],
    ['a password over 20 characters', { username: 'longpw', password: 'p'.repeat(21) }, '密码长度不得超过 20 位！'],
    ['passwords that differ', { username: 'mismatch', password: 'password123', password2: 'password124' }, '两次输入的密码不一致'],
  ];
  it.each(refusals)('refuses %s and creates nothing', async (_name, body, message) => {
    expect((await register(body)).body).toEqual({ success: false, message });
    if (body.username) expect(await findUser(String(body.username))).toBeUndefined();
  });

  it('obeys the registration switches and refuses taken usernames, deregistered ones included', async () => {
    await testApp.context.options.set('RegisterEnabled', 'false');
    expect((await register({ username: 'closed1', password: 'password123' })).body.message).toBe('管理员关闭了新用户注册');
    await testApp.context.options.set('RegisterEnabled', 'true');
    await testApp.context.options.set('PasswordRegisterEnabled', 'false');
    expect((await register({ username: 'closed1', password: 'password123' }, '', 'en')).body.message).toBe(
      'Administrator has disabled password registration; sign up with a third-party account',
    );
    expect(await findUser('closed1')).toBeUndefined();
    await testApp.context.options.set('PasswordRegisterEnabled', 'true');

    const existing = await createTestUser(testApp);
    expect((await register({ username: existing.username, password: 'password123' })).body.message).toBe('用户名已存在，或已注销');
    await callApi(testApp, 'DELETE', '/api/user/self', { headers: existing.headers });
    expect((await register({ username: existing.username, password: 'password123' })).body.message).toBe('用户名已存在，或已注销');
  });

  it('credits invitations: invitee quota, inviter pending and lifetime earnings and count, each logged', async () => {
    for (const [key, value] of Object.entries({ QuotaForNewUser: '100', QuotaForInvitee: '20', QuotaForInviter: '50' }))
      await testApp.context.options.set(key, value);
    const inviter = await createTestUser(testApp);
    const inviterRow = await testApp.context.database.db.selectFrom('users').select('aff_code').where('id', '=', inviter.id).executeTakeFirstOrThrow();
    expect((await register({ username: 'invited1', password: 'password123', aff_code: inviterRow.aff_code })).body.success).toBe(true);
    expect((await register({ username: 'invited2', password: 'password123', aff_code: inviterRow.aff_code })).body.success).toBe(true);
    expect((await register({ username: 'invited3', password: 'password123', aff_code: 'nonexistent' })).body.success).toBe(true);
    const invitee = await findUser('invited1');
    expect(invitee).toMatchObject({ quota: 120, inviter_id: inviter.id });
    expect(await findUser('invited3')).toMatchObject({ quota: 100, inviter_id: 0 });
    const after = await testApp.context.database.db.selectFrom('users').selectAll().where('id', '=', inviter.id).executeTakeFirstOrThrow();
    expect(after).toMatchObject({ aff_count: 2, aff_quota: 100, aff_history: 100, quota: 0 });
    expect((await logsOf(testApp, invitee?.id ?? 0)).map((log) => [log.type, log.quota])).toEqual([
      [LogType.system, 100],
      [LogType.system, 20],
    ]);
    expect((await logsOf(testApp, inviter.id)).map((log) => [log.type, log.quota])).toEqual([
      [LogType.system, 50],
      [LogType.system, 50],
    ]);
  });

  it('requires a mailed code when email verification is on; codes are single-use, rate-limited and expire', async () => {
    await testApp.context.options.set('EmailVerificationEnabled', 'true');
    expect((await register({ username: 'mailuser', password: 'password123' })).body.message).toBe('管理员开启了邮箱验证，请输入邮箱地址和验证码');

    expect((await callApi(testApp, 'GET', '/api/verification?email=Mail.User@Example.com')).body).toEqual({
      success: true,
      message: '验证码发送成功，请检查邮箱',
    });
    const mail = smtp.lastTo('mail.user@example.com');
    expect(mail?.from).toBe('noreply@gateway.test');
    const code = /<strong>(\d{6})<\/strong>/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);

    const mailsTo = (address: string) => smtp.mails.filter((candidate) => candidate.to.includes(address)).length;
    expect(mailsTo('mail.user@example.com')).toBe(1);
    const again = await callApi(testApp, 'GET', '/api/verification?email=mail.user@example.com');
    expect(again.status).toBe(429);
    expect(again.body.message).toBe('请求过于频繁，请 30 秒后再试');
    // The refused resend mails nothing (nodemailer resolves only once the server took a message).
    expect(mailsTo('mail.user@example.com')).toBe(1);

    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await register({ username: 'mailuser', password: 'password123', email: 'mail.user@example.com', verification_code: wrongCode })).body.message).toBe(
      '验证码错误或已过期',
    );
    expect(await findUser('mailuser')).toBeUndefined();
    expect((await register({ username: 'mailuser', password: 'password123', email: 'mail.user@example.com', verification_code: code })).body.success).toBe(
      true,
    );
    expect(await findUser('mailuser')).toMatchObject({ email: 'mail.user@example.com' });
    expect((await register({ username: 'mailuser2', password: 'password123', email: 'mail.user@example.com', verification_code: code })).body.message).toBe(
      '邮箱地址已被占用',
    );
    expect(mailsTo('mail.user@example.com')).toBe(1);

    clock.advance(31);
    expect((await callApi(testApp, 'GET', '/api/verification?email=late@example.com')).body.success).toBe(true);
    const lateCode = /<strong>(\d{6})<\/strong>/.exec(smtp.lastTo('late@example.com')?.text ?? '')?.[1] ?? '';
    clock.advance(11 * 60);
    expect((await register({ username: 'lateuser', password: 'password123', email: 'late@example.com', verification_code: lateCode })).body.message).toBe(
      '验证码错误或已过期',
    );
    expect(await findUser('lateuser')).toBeUndefined();
  });

  it('applies the email domain whitelist and alias restriction before mailing', async () => {
    const sentBefore = smtp.mails.length;
    await testApp.context.options.set('EmailDomainRestrictionEnabled', 'true');
    await testApp.context.options.set('EmailDomainWhitelist', 'gmail.com,example.org');
    expect((await callApi(testApp, 'GET', '/api/verification?email=someone@elsewhere.net')).body.message).toBe(
      '管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中',
    );
    await testApp.context.options.set('EmailAliasRestrictionEnabled', 'true');
    expect((await callApi(testApp, 'GET', '/api/verification?email=some.one@gmail.com')).body.message).toBe(
      '管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。',
    );
    expect((await callApi(testApp, 'GET', '/api/verification?email=some%2Bone@gmail.com', { language: 'en' })).body.message).toBe(
      'The administrator forbids email aliases; your address contains a special character',
    );
    expect((await callApi(testApp, 'GET', '/api/verification?email=not-an-email')).body.message).toBe('无效的邮箱地址');
    expect((await callApi(testApp, 'GET', '/api/verification?email=')).body.message).toBe('无效的邮箱地址');
    expect(smtp.mails.length).toBe(sentBefore);
    expect((await callApi(testApp, 'GET', '/api/verification?email=someone@example.org')).body.success).toBe(true);
    expect(smtp.mails.length).toBe(sentBefore + 1);
  });

  it('checks Turnstile with the configured verify URL when enabled', async () => {
    await testApp.context.options.set('TurnstileSecretKey', 'turnstile-secret');
    await testApp.context.options.set('TurnstileCheckEnabled', 'true');
    expect((await register({ username: 'human1', password: 'password123' })).body.message).toBe('Turnstile token 为空');
    expect((await register({ username: 'human1', password: 'password123' }, '?turnstile=robot-token')).body.message).toBe('Turnstile 校验失败，请刷新重试！');
    expect(await findUser('human1')).toBeUndefined();
    expect((await register({ username: 'human1', password: 'password123' }, '?turnstile=human-token')).body.success).toBe(true);
    const sent = new URLSearchParams(turnstile.requests.at(-1)?.body ?? '');
    expect(sent.get('secret')).toBe('turnstile-secret');
    expect(sent.get('response')).toBe('human-token');
    const login = await callApi(testApp, 'POST', '/api/user/login', { body: { username: 'human1', password: 'password123' } });
    expect(login.body.message).toBe('Turnstile token 为空');
  });
});
