import { createHash, createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LogType, Role } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi, logsOf, movableClock, sessionFrom } from '../user/testing/account-test-kit.ts';
import { seedChannel } from '../../relay/testing/relay-seed.ts';
import { startSmtpCatcher } from '../verification/testing/smtp-catcher.ts';
import { decodeBase32, totpAt } from './totp.ts';

/** The Telegram login widget's signature (core.telegram.org/widgets/login#checking-authorization). */
function signTelegram(fields: Record<string, string>, botToken: string): string {
  const checkString = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(botToken).digest()).update(checkString).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

describe.each(testDatabases())('two-factor authentication on $dialect', (database) => {
  let testApp: TestApp;
  const clock = movableClock();

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const codeFor = (secret: string, offsetSteps = 0) => totpAt(decodeBase32(secret), clock.unixSeconds() + offsetSteps * 30);
  const post = (url: string, headers: Record<string, string>, body: unknown, language?: 'en') =>
    callApi(testApp, 'POST', url, { headers, body, ...(language ? { language } : {}) });

  /** A user with TOTP on: the secret and the ten backup codes from the setup. */
  async function enrolledUser(role: number = Role.common): Promise<TestUser & { secret: string; backupCodes: string[] }> {
    const user = await createTestUser(testApp, { role });
    const setup = await post('/api/user/2fa/setup', user.headers, {});
    const { secret, backup_codes: backupCodes } = setup.body.data as { secret: string; backup_codes: string[] };
    expect((await post('/api/user/2fa/enable', user.headers, { code: codeFor(secret) })).body.success).toBe(true);
    // The next code check must use a later step: enabling took this one.
    clock.advance(30);
    return { ...user, secret, backupCodes };
  }

  const passwordLogin = (user: TestUser, language?: 'en') => post('/api/user/login', {}, { username: user.username, password: user.password }, language);

  it('enrols with a QR URL, ten backup codes shown once and stored hashed, confirmed by a code', async () => {
    const user = await createTestUser(testApp);
    expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data).toEqual({ enabled: false, locked: false });
    await testApp.context.options.set('SystemName', 'My Gateway');
    const setup = await post('/api/user/2fa/setup', user.headers, {});
    expect(setup.body.success).toBe(true);
    const { secret, qr_code_data: url, backup_codes: codes } = setup.body.data as { secret: string; qr_code_data: string; backup_codes: string[] };
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(url).toBe(`otpauth://totp/My%20Gateway:${user.username}?secret=${secret}&issuer=My+Gateway&algorithm=SHA1&digits=6&period=30`);
    expect(codes).toHaveLength(10);
    expect(codes.every((code) => /^[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(code))).toBe(true);
    const stored = await testApp.context.database.db
      .selectFrom('switchboard_two_factor_backup_codes')
      .select('code_hash')
      .where('user_id', '=', user.id)
      .execute();
    expect(stored).toHaveLength(10);
    expect(stored.every((row) => row.code_hash.startsWith('scrypt$') && !codes.some((code) => row.code_hash.includes(code)))).toBe(true);
    // Pending until confirmed: the login is not yet asked for a code.
    expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data.enabled).toBe(false);
    expect((await passwordLogin(user)).body.data.require_2fa).toBeUndefined();

    const wrong = await post('/api/user/2fa/enable', user.headers, { code: codeFor(secret, 5) }, 'en');
    expect(wrong.body).toEqual({ success: false, message: 'The code or backup code is wrong, try again' });
    const enabled = await post('/api/user/2fa/enable', user.headers, { code: codeFor(secret) });
    expect(enabled.body).toEqual({ success: true, message: '两步验证启用成功' });
    expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data).toEqual({
      enabled: true,
      locked: false,
      backup_codes_remaining: 10,
    });
    expect((await post('/api/user/2fa/setup', user.headers, {})).body.message).toBe('用户已启用2FA，请先禁用后重新设置');
    expect((await logsOf(testApp, user.id)).map((row) => row.content)).toEqual(['开始设置两步验证', '启用两步验证']);
  });

  it('asks for the code after the password, logs in with it, and refuses a replay within its window', async () => {
    const user = await enrolledUser();
    // The movable clock runs with real time: the login may cross a second boundary.
    const askedAt = clock.unixSeconds();
    const first = await passwordLogin(user, 'en');
    expect(first.body).toMatchObject({ success: true, message: 'Enter your two-factor code', data: { require_2fa: true } });
    expect(first.body.data.flow_token).toMatch(/^[\w-]{32}$/);
    expect(first.body.data.expires_at).toBeGreaterThanOrEqual(askedAt + 300);
    expect(first.body.data.expires_at).toBeLessThanOrEqual(clock.unixSeconds() + 300);
    expect(first.cookies.some((cookie) => cookie.name === 'session')).toBe(false);

    const wrong = await post('/api/user/login/2fa', {}, { code: '000000', flow_token: first.body.data.flow_token });
    expect(wrong.body).toEqual({ success: false, message: '验证码或备用码错误，请重试' });
    const code = codeFor(user.secret);
    const passed = await post('/api/user/login/2fa', {}, { code, flow_token: first.body.data.flow_token });
    expect(passed.body).toMatchObject({ success: true, data: { id: user.id, username: user.username } });
    const self = await callApi(testApp, 'GET', '/api/user/self', { headers: sessionFrom(passed, user.id) });
    expect(self.body.data.id).toBe(user.id);
    // The code just given verifies the new session for the re-verification window.
    expect((await callApi(testApp, 'GET', '/api/user/token', { headers: sessionFrom(passed, user.id) })).body.success).toBe(true);
    // The challenge is spent, and the same code, on a fresh challenge, is refused.
    expect((await post('/api/user/login/2fa', {}, { code, flow_token: first.body.data.flow_token })).body.message).toBe('会话已过期，请重新登录');
    const second = await passwordLogin(user);
    expect((await post('/api/user/login/2fa', {}, { code, flow_token: second.body.data.flow_token })).body.message).toBe('该验证码已使用，请等待下一个验证码');
    // The previous step's code is older than the one used: refused too. The next step's is accepted (clock drift).
    expect((await post('/api/user/login/2fa', {}, { code: codeFor(user.secret, -1), flow_token: second.body.data.flow_token })).body.success).toBe(false);
    expect((await post('/api/user/login/2fa', {}, { code: codeFor(user.secret, 1), flow_token: second.body.data.flow_token })).body.success).toBe(true);
  });

  it('continues a classic client that posts only the code, with the pending login in its cookie', async () => {
    const user = await enrolledUser();
    const first = await passwordLogin(user);
    const pending = first.cookies.find((cookie) => cookie.name === 'two_factor_login');
    expect(pending).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/user/login' });
    const passed = await post('/api/user/login/2fa', { cookie: `two_factor_login=${pending?.value}` }, { code: codeFor(user.secret) });
    expect(passed.body).toMatchObject({ success: true, data: { id: user.id } });
    expect((await post('/api/user/login/2fa', {}, { code: codeFor(user.secret) })).body.message).toBe('会话已过期，请重新登录');
  });

  it('logs in with a backup code once, and counts the codes left', async () => {
    const user = await enrolledUser();
    const [backup] = user.backupCodes;
    const first = await passwordLogin(user);
    const passed = await post('/api/user/login/2fa', {}, { code: backup?.toLowerCase().replace('-', ' '), flow_token: first.body.data.flow_token });
    expect(passed.body.success).toBe(true);
    const again = await passwordLogin(user);
    expect((await post('/api/user/login/2fa', {}, { code: backup, flow_token: again.body.data.flow_token })).body.message).toBe('验证码或备用码错误，请重试');
    expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data.backup_codes_remaining).toBe(9);
    expect((await logsOf(testApp, user.id)).at(-1)?.content).toBe('使用了一个两步验证备用码');
  });

  it('counts wrong codes per user apart from passwords: five checks, then the second step locks and the user is mailed', async () => {
    const smtp = await startSmtpCatcher();
    const { options } = testApp.context;
    try {
      for (const [key, value] of Object.entries({ SMTPServer: '127.0.0.1', SMTPPort: String(smtp.port), SMTPAccount: 'mailer@gateway.test', SMTPToken: 'x' }))
        await options.set(key, value);
      const user = await enrolledUser();
      const email = `${user.username}@users.test`;
      await testApp.context.database.db.updateTable('users').set({ email }).where('id', '=', user.id).execute();
      const rightCodes = new Set([-1, 0, 1].map((offset) => codeFor(user.secret, offset)));
      const wrongCodes = Array.from({ length: 40 }, (_, index) => String(100000 + index)).filter((code) => !rightCodes.has(code));
      const guess = async (code: string, flowToken?: string) => {
        const token = flowToken ?? (await passwordLogin(user)).body.data.flow_token;
        return post('/api/user/login/2fa', {}, { code, flow_token: token }, 'en');
      };
      // Three wrong codes, each after a fresh, right password: a password success must not forgive them.
      const answers = [];
      for (const code of wrongCodes.slice(0, 3)) answers.push(await guess(code));
      expect(answers[0]?.body).toEqual({ success: false, message: 'The code or backup code is wrong, try again' });
      // Then a burst in parallel on one challenge: only the two checks left are made.
      const challenge = (await passwordLogin(user)).body.data.flow_token as string;
      answers.push(...(await Promise.all(wrongCodes.slice(3).map((code) => guess(code, challenge)))));
      const checked = answers.filter((answer) => answer.status === 200);
      const locked = answers.filter((answer) => answer.status === 429);
      expect([checked.length, locked.length]).toEqual([5, answers.length - 5]);
      expect(locked[0]?.body).toEqual({
        success: false,
        message: 'Too many wrong two-factor codes: the second step is locked for 15 minutes, try again later',
        code: 'second_factor_locked',
      });

      // Locked: the right password still only reaches the second step, where even the right code is refused.
      const blocked = await guess(codeFor(user.secret));
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({ code: 'second_factor_locked' });
      expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data).toMatchObject({ enabled: true, locked: true });
      await vi.waitFor(() => expect(smtp.mails.filter((mail) => mail.to.includes(email))).toHaveLength(1));
      const mail = smtp.lastTo(email);
      expect(mail?.text).toContain('5 wrong two-factor codes (the last from 127.0.0.1); the second step is locked for 15 minutes');
      expect((await logsOf(testApp, user.id)).at(-1)?.content).toBe('两步验证连续输错，已锁定（来自 127.0.0.1）');

      // After the lock the right code passes, and the count starts again.
      clock.advance(15 * 60 + 1);
      expect((await guess(codeFor(user.secret))).body).toMatchObject({ success: true, data: { id: user.id } });
      expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data.locked).toBe(false);
    } finally {
      await options.set('SMTPServer', '');
      await smtp.close();
    }
  });

  it('regenerates backup codes with a TOTP code (the old ones stop working) and disables with a backup code', async () => {
    const user = await enrolledUser();
    expect((await post('/api/user/2fa/backup_codes', user.headers, { code: user.backupCodes[0] })).body.success).toBe(false);
    const regenerated = await post('/api/user/2fa/backup_codes', user.headers, { code: codeFor(user.secret) });
    expect(regenerated.body).toMatchObject({ success: true, message: '备用码重新生成成功' });
    const fresh = regenerated.body.data.backup_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh).not.toContain(user.backupCodes[1]);
    expect((await post('/api/user/2fa/disable', user.headers, { code: user.backupCodes[1] })).body.success).toBe(false);
    expect((await post('/api/user/2fa/disable', user.headers, { code: fresh[0] })).body).toEqual({ success: true, message: '两步验证已禁用' });
    expect((await callApi(testApp, 'GET', '/api/user/2fa/status', { headers: user.headers })).body.data).toEqual({ enabled: false, locked: false });
    expect((await passwordLogin(user)).body.data).toMatchObject({ id: user.id });
    expect(await testApp.context.database.db.selectFrom('switchboard_two_factor_backup_codes').selectAll().where('user_id', '=', user.id).execute()).toEqual(
      [],
    );
  });

  it('masks token keys for a user with a second factor and reveals one, or changes the password, only after re-verifying', async () => {
    const plain = await createTestUser(testApp);
    const created = await post('/api/token/', plain.headers, { name: 'open', remain_quota: 0, expired_time: -1, unlimited_quota: true });
    const plainToken = created.body.data[0] as { id: number; key: string };
    expect(plainToken.key).toMatch(/^[0-9A-Za-z]{48}$/);
    expect((await post(`/api/token/${plainToken.id}/key`, plain.headers, {})).body.data).toEqual({ key: plainToken.key });

    const user = await enrolledUser();
    const made = await post('/api/token/', user.headers, { name: 'guarded', remain_quota: 0, expired_time: -1, unlimited_quota: true });
    const token = made.body.data[0] as { id: number; key: string };
    expect(token.key).toMatch(/^[0-9A-Za-z]{4}\*{10}[0-9A-Za-z]{4}$/);
    const listed = await callApi(testApp, 'GET', '/api/token/', { headers: user.headers });
    expect(listed.body.data.map((row: { key: string }) => row.key)).toEqual([token.key]);
    const refused = await post(`/api/token/${token.id}/key`, user.headers, {}, 'en');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ success: false, message: 'Confirm with your two-factor code before doing this', code: 'verification_required' });
    const passwordRefused = await callApi(testApp, 'PUT', '/api/user/self', {
      headers: user.headers,
      body: { password: 'new-password-1', original_password: user.password },
    });
    expect(passwordRefused.body).toMatchObject({ success: false, code: 'verification_required' });

    expect((await post('/api/verify', user.headers, { method: '2fa', code: '000000' })).body.success).toBe(false);
    const verifiedAt = clock.unixSeconds();
    const verified = await post('/api/verify', user.headers, { method: '2fa', code: codeFor(user.secret) });
    expect(verified.body).toEqual({ success: true, message: '验证成功', data: { verified: true, expires_at: expect.any(Number) } });
    expect(verified.body.data.expires_at).toBeGreaterThanOrEqual(verifiedAt + 300);
    expect(verified.body.data.expires_at).toBeLessThanOrEqual(clock.unixSeconds() + 300);
    const revealed = await post(`/api/token/${token.id}/key`, user.headers, {});
    const row = await testApp.context.database.db.selectFrom('tokens').select('key').where('id', '=', token.id).executeTakeFirstOrThrow();
    expect(revealed.body.data).toEqual({ key: row.key });
    expect((await post(`/api/token/${plainToken.id}/key`, user.headers, {})).body.message).toBe('令牌不存在');
    const changed = await callApi(testApp, 'PUT', '/api/user/self', {
      headers: user.headers,
      body: { password: 'new-password-1', original_password: user.password },
    });
    expect(changed.body.success).toBe(true);
    // The verification lasts five minutes.
    clock.advance(301);
    expect((await post(`/api/token/${token.id}/key`, user.headers, {})).body).toMatchObject({ code: 'verification_required' });
  });

  it('asks root with a second factor for a recent check before revealing a channel key, as for a token key', async () => {
    const root = await enrolledUser(Role.root);
    const channelId = await seedChannel(testApp, { key: 'sk-upstream-secret', baseUrl: 'https://upstream.example', models: ['gpt-4o'] });
    const refused = await post(`/api/channel/${channelId}/key`, root.headers, {}, 'en');
    expect([refused.status, refused.body]).toEqual([
      403,
      { success: false, message: 'Confirm with your two-factor code before doing this', code: 'verification_required' },
    ]);
    expect(JSON.stringify(refused.body)).not.toContain('sk-upstream-secret');
    expect((await post('/api/verify', root.headers, { method: '2fa', code: codeFor(root.secret) })).body.success).toBe(true);
    expect((await post(`/api/channel/${channelId}/key`, root.headers, {})).body).toMatchObject({ success: true, data: { key: 'sk-upstream-secret' } });
  });

  it('asks for the code after a third-party login too', async () => {
    await testApp.context.options.set('TelegramOAuthEnabled', 'true');
    await testApp.context.options.set('TelegramBotToken', '123456:bot-token');
    const user = await enrolledUser();
    const telegramId = String(700000 + user.id);
    await testApp.context.database.db.updateTable('users').set({ telegram_id: telegramId }).where('id', '=', user.id).execute();
    const widget = signTelegram({ id: telegramId, first_name: 'Tele', auth_date: String(clock.unixSeconds()) }, '123456:bot-token');
    const login = await callApi(testApp, 'GET', `/api/oauth/telegram/login?${widget}`);
    expect(login.body.data).toMatchObject({ require_2fa: true });
    expect(login.cookies.some((cookie) => cookie.name === 'session')).toBe(false);
    const passed = await post('/api/user/login/2fa', {}, { code: codeFor(user.secret), flow_token: login.body.data.flow_token });
    expect(passed.body.data).toMatchObject({ id: user.id });
    expect(passed.cookies.some((cookie) => cookie.name === 'session')).toBe(true);
  });

  it('lets an administrator reset a lost second factor (logged), never for an equal or higher role', async () => {
    const user = await enrolledUser();
    const admin = await createTestUser(testApp, { role: Role.admin });
    const otherAdmin = await createTestUser(testApp, { role: Role.admin });
    expect((await callApi(testApp, 'DELETE', `/api/user/${user.id}/2fa`, { headers: user.headers })).status).toBe(403);
    expect((await callApi(testApp, 'DELETE', `/api/user/${otherAdmin.id}/2fa`, { headers: admin.headers })).body.message).toBe(
      '无权操作同级或更高级用户的2FA设置',
    );
    const reset = await callApi(testApp, 'DELETE', `/api/user/${user.id}/2fa`, { headers: admin.headers });
    expect(reset.body).toEqual({ success: true, message: '用户2FA已被强制禁用' });
    const log = (await logsOf(testApp, user.id)).at(-1);
    expect(log).toMatchObject({ type: LogType.manage, content: `管理员（${admin.username}，ID ${admin.id}）重置了用户的两步验证` });
    expect((await passwordLogin(user)).body.data).toMatchObject({ id: user.id });
    expect((await callApi(testApp, 'DELETE', `/api/user/${user.id}/2fa`, { headers: admin.headers })).body.message).toBe('用户未启用2FA');
    const root = await rootUser(testApp);
    expect((await callApi(testApp, 'DELETE', `/api/user/${user.id}/2fa`, { headers: root.headers })).body.success).toBe(false);
  });
});
