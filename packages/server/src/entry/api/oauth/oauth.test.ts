import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, UserStatus } from '@switchboard/contracts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi, logsOf, sessionFrom, userRow } from '../user/testing/account-test-kit.ts';
import { startSmtpCatcher } from '../verification/testing/smtp-catcher.ts';
import { startFakeProviders } from './testing/fake-providers.ts';

const botToken = '123456:telegram-bot-token';

function signTelegram(fields: Record<string, string>, token = botToken): Record<string, string> {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(checkString).digest('hex');
  return { ...fields, hash };
}

describe.each(testDatabases())('third-party logins and bindings on $dialect', (database) => {
  let testApp: TestApp;
  let providers: Awaited<ReturnType<typeof startFakeProviders>>;
  let smtp: Awaited<ReturnType<typeof startSmtpCatcher>>;

  beforeAll(async () => {
    providers = await startFakeProviders();
    smtp = await startSmtpCatcher();
    testApp = await createTestApp(database, {
      GITHUB_TOKEN_URL: `${providers.url}/github/login/oauth/access_token`,
      GITHUB_USER_URL: `${providers.url}/github/user`,
      LINUX_DO_TOKEN_ENDPOINT: `${providers.url}/linuxdo/oauth2/token`,
      LINUX_DO_USER_ENDPOINT: `${providers.url}/linuxdo/api/user`,
    });
    const settings = {
      ServerAddress: 'https://gateway.test',
      GitHubClientId: 'gh-client',
      GitHubClientSecret: 'gh-secret',
      GitHubOAuthEnabled: 'true',
      LinuxDOClientId: 'ld-client',
      LinuxDOClientSecret: 'ld-secret',
      LinuxDOOAuthEnabled: 'true',
      WeChatServerAddress: `${providers.url}/wechat`,
      WeChatServerToken: 'wechat-server-token',
      WeChatAuthEnabled: 'true',
      // The WeChat server's address is a setting: the operator lets the server reach the local fake.
      'fetch_setting.ip_filter_mode': 'true',
      'fetch_setting.ip_list': '["127.0.0.1"]',
      'fetch_setting.allowed_ports': '[]',
      TelegramBotToken: botToken,
      TelegramBotName: 'gateway_bot',
      TelegramOAuthEnabled: 'true',
      SMTPServer: '127.0.0.1',
      SMTPPort: String(smtp.port),
    };
    for (const [key, value] of Object.entries(settings)) await testApp.context.options.set(key, value);
  });
  afterAll(async () => {
    await testApp.close();
    await providers.close();
    await smtp.close();
  });

  /** Asks for a state like the console does; answers it with the cookie the browser would keep. */
  async function startOAuth(aff = '', headers: Record<string, string> = {}) {
    const answer = await callApi(testApp, 'GET', `/api/oauth/state?aff=${aff}`, { headers });
    const cookie = answer.cookies.find((candidate) => candidate.name === 'oauth_state');
    return { state: answer.body.data as string, cookie: `oauth_state=${cookie?.value ?? ''}` };
  }

  async function callback(provider: string, code: string, options: { aff?: string; session?: Record<string, string> } = {}) {
    const { state, cookie } = await startOAuth(options.aff ?? '');
    const headers = { ...options.session, cookie: [cookie, options.session?.cookie].filter(Boolean).join('; ') };
    return callApi(testApp, 'GET', `/api/oauth/${provider}?code=${code}&state=${state}`, { headers });
  }

  it('signs up on first GitHub login (with the invitation in the state), then logs the same user in', async () => {
    await testApp.context.options.set('QuotaForNewUser', '10');
    await testApp.context.options.set('QuotaForInviter', '5');
    const inviter = await createTestUser(testApp);
    const affCode = (await userRow(testApp, inviter.id)).aff_code ?? '';
    const first = await callback('github', 'good-octocat', { aff: affCode });
    expect(first.body.success).toBe(true);
    expect(first.body.data.username).toMatch(/^github_\d+$/);
    const created = await userRow(testApp, first.body.data.id);
    expect(created).toMatchObject({
      github_id: 'octocat',
      display_name: 'octocat on GitHub',
      email: 'octocat@github.test',
      inviter_id: inviter.id,
      quota: 10,
      password: '',
    });
    expect((await userRow(testApp, inviter.id)).aff_quota).toBe(5);
    expect((await logsOf(testApp, created.id)).map((log) => log.type)).toEqual([LogType.system]);
    const self = await callApi(testApp, 'GET', '/api/user/self', { headers: sessionFrom(first, created.id) });
    expect(self.body.data.github_id).toBe('octocat');

    const again = await callback('github', 'good-octocat');
    expect(again.body.data.id).toBe(created.id);
    const token = new URLSearchParams(providers.requests.find((request) => request.path === '/github/login/oauth/access_token')?.body);
    expect(Object.fromEntries(token)).toEqual({ client_id: 'gh-client', client_secret: 'gh-secret', code: 'good-octocat' });
    await testApp.context.options.set('QuotaForNewUser', '0');
    await testApp.context.options.set('QuotaForInviter', '0');
  });

  it('checks the state: missing, foreign or spent states are refused', async () => {
    const missing = await callApi(testApp, 'GET', '/api/oauth/github?code=good-someone&state=');
    expect(missing.body).toEqual({ success: false, message: 'state 为空或不一致，请重新登录' });
    const { state, cookie } = await startOAuth();
    const foreign = await callApi(testApp, 'GET', `/api/oauth/github?code=good-someone&state=${state}`);
    expect(foreign.body.success).toBe(false);
    expect((await callApi(testApp, 'GET', `/api/oauth/github?code=good-someone&state=${state}`, { headers: { cookie } })).body.success).toBe(true);
    const spent = await callApi(testApp, 'GET', `/api/oauth/github?code=good-someone&state=${state}`, { headers: { cookie }, language: 'en' });
    expect(spent.body).toEqual({ success: false, message: 'The OAuth state is missing, expired or does not match; start the login again' });
  });

  it('refuses bad codes, closed registration, banned users and a disabled provider', async () => {
    expect((await callback('github', 'bad-code')).body.message).toBe('GitHub 授权失败，请重试');
    await testApp.context.options.set('RegisterEnabled', 'false');
    expect((await callback('github', 'good-newcomer')).body.message).toBe('管理员关闭了新用户注册');
    await testApp.context.options.set('RegisterEnabled', 'true');
    expect(await testApp.context.database.db.selectFrom('users').select('id').where('github_id', '=', 'newcomer').executeTakeFirst()).toBeUndefined();

    const banned = await createTestUser(testApp, { status: UserStatus.disabled });
    await testApp.context.database.db.updateTable('users').set({ github_id: 'banned-gh' }).where('id', '=', banned.id).execute();
    const refused = await callback('github', 'good-banned-gh');
    expect(refused.body).toEqual({ success: false, message: '用户已被封禁' });
    expect(refused.cookies.find((cookie) => cookie.name === 'session')).toBeUndefined();

    const gone = await createTestUser(testApp);
    await testApp.context.database.db.updateTable('users').set({ github_id: 'gone-gh' }).where('id', '=', gone.id).execute();
    await callApi(testApp, 'DELETE', '/api/user/self', { headers: gone.headers });
    expect((await callback('github', 'good-gone-gh')).body).toEqual({ success: false, message: '用户已注销' });

    await testApp.context.options.set('GitHubOAuthEnabled', 'false');
    expect((await callback('github', 'good-octocat')).body.message).toBe('管理员未开启通过 GitHub 登录以及注册');
    await testApp.context.options.set('GitHubOAuthEnabled', 'true');
  });

  it('binds GitHub to the logged-in user, once per GitHub account', async () => {
    const user = await createTestUser(testApp);
    const bound = await callback('github', 'good-binder', { session: user.headers });
    expect(bound.body).toEqual({ success: true, message: 'bind' });
    expect((await userRow(testApp, user.id)).github_id).toBe('binder');
    const other = await createTestUser(testApp);
    const taken = await callback('github', 'good-binder', { session: other.headers });
    expect(taken.body).toEqual({ success: false, message: '该 GitHub 账户已被绑定' });
    expect((await userRow(testApp, other.id)).github_id).toBe('');
  });

  it('logs in with LinuxDO Connect using Basic client credentials and the redirect URI', async () => {
    const answer = await callback('linuxdo', 'good-penguin');
    expect(answer.body.data.username).toMatch(/^linuxdo_\d+$/);
    expect((await userRow(testApp, answer.body.data.id)).linux_do_id).toBe('7007');
    const tokenRequest = providers.requests.find((request) => request.path === '/linuxdo/oauth2/token');
    expect(tokenRequest?.headers.authorization).toBe(`Basic ${Buffer.from('ld-client:ld-secret').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: 'authorization_code',
      code: 'good-penguin',
      redirect_uri: 'https://gateway.test/oauth/linuxdo',
    });
  });

  it('logs in and binds with WeChat codes through the WeChat server', async () => {
    const login = await callApi(testApp, 'GET', '/api/oauth/wechat?code=good-wei');
    expect(login.body.data.username).toMatch(/^wechat_\d+$/);
    expect((await userRow(testApp, login.body.data.id)).wechat_id).toBe('openid-wei');
    expect((await callApi(testApp, 'GET', '/api/oauth/wechat?code=expired')).body.message).toBe('验证码错误或已过期');

    const user = await createTestUser(testApp);
    expect((await callApi(testApp, 'GET', '/api/oauth/wechat/bind?code=good-li', { headers: user.headers })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).wechat_id).toBe('openid-li');
    const other = await createTestUser(testApp);
    const otherBefore = await userRow(testApp, other.id);
    expect((await callApi(testApp, 'GET', '/api/oauth/wechat/bind?code=good-li', { headers: other.headers })).body.message).toBe('该微信账号已被绑定');
    expect((await callApi(testApp, 'GET', '/api/oauth/wechat/bind?code=', { headers: other.headers })).body.message).toBe('验证码不能为空');
    expect(await userRow(testApp, other.id)).toEqual(otherBefore);

    // Under the default outgoing-request policy the WeChat server on a local address is never called.
    const { options } = testApp.context;
    await options.set('fetch_setting.ip_filter_mode', 'false');
    const calls = providers.requests.length;
    try {
      expect((await callApi(testApp, 'GET', '/api/oauth/wechat?code=good-wei')).body).toMatchObject({ success: false });
      expect(providers.requests.length).toBe(calls);
    } finally {
      await options.set('fetch_setting.ip_filter_mode', 'true');
    }

    await testApp.context.options.set('WeChatServerToken', 'wrong-token');
    expect((await callApi(testApp, 'GET', '/api/oauth/wechat?code=good-wei')).body.message).toBe('微信服务器返回错误：token invalid');
    await testApp.context.options.set('WeChatServerToken', 'wechat-server-token');
  });

  it('checks the Telegram widget signature and age, binds through the auth URL and logs bound users in', async () => {
    const now = Math.floor(Date.now() / 1000);
    const user = await createTestUser(testApp);
    const widget = signTelegram({ id: '424242', first_name: 'Tele', username: 'tele_user', auth_date: String(now) });
    const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

    const notBound = await callApi(testApp, 'GET', `/api/oauth/telegram/login?${query(widget)}`);
    expect(notBound.body).toEqual({ success: false, message: '该 Telegram 账户未绑定' });

    const anonymousBind = await testApp.app.inject({ method: 'GET', url: `/api/oauth/telegram/bind?${query(widget)}` });
    expect(anonymousBind.statusCode).toBe(401);
    const bind = await testApp.app.inject({ method: 'GET', url: `/api/oauth/telegram/bind?${query(widget)}`, headers: { cookie: user.headers.cookie ?? '' } });
    expect(bind.statusCode).toBe(302);
    expect(bind.headers.location).toBe('/setting?tab=personal');
    expect((await userRow(testApp, user.id)).telegram_id).toBe('424242');

    const login = await callApi(testApp, 'GET', `/api/oauth/telegram/login?${query({ ...widget, lang: 'en' })}`);
    expect(login.body.data.id).toBe(user.id);

    const forged = await callApi(testApp, 'GET', `/api/oauth/telegram/login?${query({ ...widget, id: '1' })}`);
    expect(forged.body.message).toBe('Telegram 登录数据无效或已过期');
    const stale = signTelegram({ id: '424242', first_name: 'Tele', auth_date: String(now - 2 * 24 * 3600) });
    expect((await callApi(testApp, 'GET', `/api/oauth/telegram/login?${query(stale)}`)).body.message).toBe('Telegram 登录数据无效或已过期');
    const otherBot = signTelegram({ id: '424242', auth_date: String(now) }, '999:other-bot');
    expect((await callApi(testApp, 'GET', `/api/oauth/telegram/login?${query(otherBot)}`)).body.success).toBe(false);

    const other = await createTestUser(testApp);
    const taken = await testApp.app.inject({
      method: 'GET',
      url: `/api/oauth/telegram/bind?${query(widget)}`,
      headers: { cookie: other.headers.cookie ?? '' },
    });
    expect(taken.json()).toEqual({ success: false, message: '该 Telegram 账户已被绑定' });
  });

  it('binds an email with a mailed code, refusing wrong codes and addresses in use', async () => {
    const user = await createTestUser(testApp);
    const before = await userRow(testApp, user.id);
    expect((await callApi(testApp, 'GET', '/api/oauth/email/bind?email=&code=123456', { headers: user.headers })).body.message).toBe('请输入邮箱！');
    expect((await callApi(testApp, 'GET', '/api/oauth/email/bind?email=bind.me@example.com&code=', { headers: user.headers })).body.message).toBe(
      '请输入邮箱验证码！',
    );
    expect(await userRow(testApp, user.id)).toEqual(before);
    expect((await callApi(testApp, 'GET', '/api/verification?email=bind.me@example.com')).body.success).toBe(true);
    const code = /<strong>(\d{6})<\/strong>/.exec(smtp.lastTo('bind.me@example.com')?.text ?? '')?.[1] ?? '';
    const wrongCode = code === '000000' ? '111111' : '000000';
    expect((await callApi(testApp, 'GET', `/api/oauth/email/bind?email=bind.me@example.com&code=${wrongCode}`, { headers: user.headers })).body.message).toBe(
      '验证码错误或已过期',
    );
    expect((await userRow(testApp, user.id)).email).toBe('');
    expect((await callApi(testApp, 'GET', `/api/oauth/email/bind?email=bind.me@example.com&code=${code}`, { headers: user.headers })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).email).toBe('bind.me@example.com');

    const other = await createTestUser(testApp);
    expect((await callApi(testApp, 'GET', `/api/oauth/email/bind?email=bind.me@example.com&code=${code}`, { headers: other.headers })).body.message).toBe(
      '邮箱地址已被占用',
    );
    expect((await callApi(testApp, 'GET', '/api/verification?email=bind.me@example.com', { language: 'en' })).body.message).toBe(
      'Email address is already in use',
    );
  });

  it('accepts a mailed code once: the same code binding the same address again is refused', async () => {
    const user = await createTestUser(testApp);
    expect((await callApi(testApp, 'GET', '/api/verification?email=once@example.com')).body.success).toBe(true);
    const code = /<strong>(\d{6})<\/strong>/.exec(smtp.lastTo('once@example.com')?.text ?? '')?.[1] ?? '';
    const bind = () => callApi(testApp, 'GET', `/api/oauth/email/bind?email=once@example.com&code=${code}`, { headers: user.headers });
    expect((await bind()).body).toEqual({ success: true, message: '' });
    // The address is free again, so no in-use check can refuse: only the spent code can, and the row keeps ''.
    await testApp.context.database.db.updateTable('users').set({ email: '' }).where('id', '=', user.id).execute();
    expect((await bind()).body).toEqual({ success: false, message: '验证码错误或已过期' });
    expect((await userRow(testApp, user.id)).email).toBe('');
  });
});
