import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, Role } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi, logsOf, movableClock, sessionFrom, userRow } from '../user/testing/account-test-kit.ts';
import { type CeremonyTweaks, SoftwareAuthenticator } from './testing/software-authenticator.ts';

// app.inject talks to the server as http://localhost (its default Host): the RP ID and origin follow it.
const origin = 'http://localhost';

describe.each(testDatabases())('passkeys on $dialect', (database) => {
  let testApp: TestApp;
  const clock = movableClock();

  beforeAll(async () => {
    testApp = await createTestApp(database, {}, clock);
    // Off until the administrator turns them on, as in new-api.
    expect((await callApi(testApp, 'GET', '/api/status')).body.data.passkey_login).toBe(false);
    await testApp.context.options.set('passkey.enabled', 'true');
  });
  afterAll(async () => {
    await testApp.close();
  });

  const post = (url: string, headers: Record<string, string>, body?: unknown, language?: 'en') =>
    callApi(testApp, 'POST', url, { headers, ...(body === undefined ? {} : { body }), ...(language ? { language } : {}) });

  async function register(user: TestUser, authenticator: SoftwareAuthenticator, name?: string, tweaks: CeremonyTweaks = {}) {
    const begin = await post('/api/user/passkey/register/begin', user.headers, {});
    expect(begin.body.success).toBe(true);
    return post('/api/user/passkey/register/finish', user.headers, {
      ...authenticator.register(begin.body.data.options.publicKey, tweaks),
      ...(name ? { name } : {}),
    });
  }

  async function passwordlessLogin(authenticator: SoftwareAuthenticator, tweaks: CeremonyTweaks = {}) {
    const begin = await post('/api/user/passkey/login/begin', {}, {});
    return post('/api/user/passkey/login/finish', {}, authenticator.authenticate(begin.body.data.options.publicKey, tweaks), 'en');
  }

  /** Re-verification with a passkey (for deletes, the access token, …). */
  async function verifyWithPasskey(user: TestUser, authenticator: SoftwareAuthenticator) {
    const begin = await post('/api/user/passkey/verify/begin', user.headers, {});
    return post('/api/user/passkey/verify/finish', user.headers, authenticator.authenticate(begin.body.data.options.publicKey));
  }

  async function userWithPasskey(): Promise<TestUser & { authenticator: SoftwareAuthenticator }> {
    const user = await createTestUser(testApp);
    const authenticator = new SoftwareAuthenticator(origin);
    expect((await register(user, authenticator, 'Laptop')).body).toEqual({ success: true, message: 'Passkey 注册成功' });
    return { ...user, authenticator };
  }

  it('registers a discoverable ES256 passkey in new-api columns, and logs in with it without a password', async () => {
    const user = await createTestUser(testApp);
    expect((await callApi(testApp, 'GET', '/api/user/passkey', { headers: user.headers })).body.data).toEqual({ enabled: false, passkeys: [] });
    const begin = await post('/api/user/passkey/register/begin', user.headers, {});
    // new-api's shape: the WebAuthn CredentialCreationOptions wrapper, the options under `publicKey`.
    expect(Object.keys(begin.body.data.options)).toEqual(['publicKey']);
    const options = begin.body.data.options.publicKey;
    expect(options).toMatchObject({
      rp: { id: 'localhost', name: 'Switchboard' },
      user: { name: user.username },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true },
    });
    // The user handle is the user id as text, as new-api sets it.
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(String(user.id));
    const authenticator = new SoftwareAuthenticator(origin);
    const registeredFrom = clock.unixSeconds();
    const finished = await post('/api/user/passkey/register/finish', user.headers, { ...authenticator.register(options), name: 'Laptop' });
    expect(finished.body).toEqual({ success: true, message: 'Passkey 注册成功' });
    const row = await testApp.context.database.db.selectFrom('passkey_credentials').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      name: 'Laptop',
      credential_id: authenticator.credentialId.toString('base64'),
      attestation_type: 'none',
      attachment: 'platform',
    });
    expect(Number(row.sign_count)).toBe(0);
    expect(row.transports).toBe('["internal"]');
    const status = await callApi(testApp, 'GET', '/api/user/passkey', { headers: user.headers });
    expect(status.body.data).toMatchObject({ enabled: true, passkeys: [{ name: 'Laptop', last_used_at: 0 }] });
    // Stored as GORM datetimes, answered in unix seconds (the wall clock may tick meanwhile).
    expect(status.body.data.passkeys[0].created_at).toBeGreaterThanOrEqual(registeredFrom);
    expect(status.body.data.passkeys[0].created_at).toBeLessThanOrEqual(clock.unixSeconds());
    // The same challenge cannot register twice (single use).
    expect((await post('/api/user/passkey/register/finish', user.headers, authenticator.register(options))).body.message).toBe('Passkey 验证已过期，请重试');

    const loggedInFrom = clock.unixSeconds();
    const login = await passwordlessLogin(authenticator);
    expect(login.body).toMatchObject({ success: true, data: { id: user.id, username: user.username } });
    const self = await callApi(testApp, 'GET', '/api/user/self', { headers: sessionFrom(login, user.id) });
    expect(self.body.data.id).toBe(user.id);
    const used = await testApp.context.database.db.selectFrom('passkey_credentials').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(used.sign_count)).toBe(1);
    const lastUsed = (await callApi(testApp, 'GET', '/api/user/passkey', { headers: user.headers })).body.data.last_used_at as number;
    expect(lastUsed).toBeGreaterThanOrEqual(loggedInFrom);
    expect(lastUsed).toBeLessThanOrEqual(clock.unixSeconds());
    expect((await logsOf(testApp, user.id)).map((log) => log.content)).toContain('注册 Passkey（Laptop）');
  });

  it('refuses a wrong signature, challenge, origin, missing user verification, a replay, and a counter that goes back', async () => {
    const { authenticator } = await userWithPasskey();
    const refused = { success: false, message: 'The passkey could not be verified; try again or contact the administrator' };
    expect((await passwordlessLogin(authenticator, { corruptSignature: true })).body).toEqual(refused);
    expect((await passwordlessLogin(authenticator, { origin: 'http://evil.example' })).body).toEqual(refused);
    // A password-less login must prove the user, not only their presence.
    expect((await passwordlessLogin(authenticator, { userVerified: false })).body).toEqual(refused);
    const otherChallenge = await passwordlessLogin(authenticator, { challenge: Buffer.from('not-the-server-challenge').toString('base64url') });
    expect(otherChallenge.body).toEqual({ success: false, message: 'The passkey request has expired, try again' });

    const begin = await post('/api/user/passkey/login/begin', {}, {});
    const answer = authenticator.authenticate(begin.body.data.options.publicKey);
    expect((await post('/api/user/passkey/login/finish', {}, answer)).body.success).toBe(true);
    expect((await post('/api/user/passkey/login/finish', {}, answer, 'en')).body.message).toBe('The passkey request has expired, try again');

    // A cloned authenticator signs with an older counter: refused, and the row is flagged as new-api does.
    const stale = await passwordlessLogin(authenticator, { counter: 1 });
    expect(stale.body).toEqual(refused);
    const row = await testApp.context.database.db
      .selectFrom('passkey_credentials')
      .select('clone_warning')
      .where('credential_id', '=', authenticator.credentialId.toString('base64'))
      .executeTakeFirstOrThrow();
    expect(Boolean(row.clone_warning)).toBe(true);
    expect((await passwordlessLogin(authenticator, { counter: 50 })).body.success).toBe(true);
  });

  it('refuses a registration answer for another challenge or origin, and a user who is banned', async () => {
    const user = await createTestUser(testApp);
    const authenticator = new SoftwareAuthenticator(origin);
    expect((await register(user, authenticator, undefined, { origin: 'https://evil.example' })).body.message).toBe('Passkey 验证失败，请重试或联系管理员');
    expect((await register(user, authenticator, undefined, { challenge: 'AAAA' })).body.message).toBe('Passkey 验证已过期，请重试');
    // Another user cannot finish this user's registration.
    const other = await createTestUser(testApp);
    const begin = await post('/api/user/passkey/register/begin', user.headers, {});
    expect((await post('/api/user/passkey/register/finish', other.headers, authenticator.register(begin.body.data.options.publicKey))).body.success).toBe(
      false,
    );
    expect(await testApp.context.database.db.selectFrom('passkey_credentials').select('id').where('user_id', 'in', [user.id, other.id]).execute()).toEqual([]);

    expect((await register(user, authenticator)).body.success).toBe(true);
    await testApp.context.database.db.updateTable('users').set({ status: 2 }).where('id', '=', user.id).execute();
    expect((await passwordlessLogin(authenticator)).body).toEqual({ success: false, message: 'User has been banned' });
  });

  it('keeps several named passkeys; renames, and deletes one only after re-verifying with a passkey', async () => {
    const user = await userWithPasskey();
    const phone = new SoftwareAuthenticator(origin);
    // With a passkey set, adding another takes a recent re-verification.
    const refused = await post('/api/user/passkey/register/begin', user.headers, {}, 'en');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'verification_required' });
    const verifiedFrom = clock.unixSeconds();
    const verified = await verifyWithPasskey(user, user.authenticator);
    expect(verified.body).toMatchObject({ success: true, message: 'Passkey 验证成功', data: { verified: true } });
    expect(verified.body.data.expires_at - verifiedFrom).toBeGreaterThanOrEqual(300);
    expect(verified.body.data.expires_at - clock.unixSeconds()).toBeLessThanOrEqual(300);
    // new-api's clients then call /api/verify with method passkey; it confirms the proof.
    expect((await post('/api/verify', user.headers, { method: 'passkey' })).body.data.verified).toBe(true);
    expect((await register(user, phone, 'Phone')).body.success).toBe(true);
    const listed = (await callApi(testApp, 'GET', '/api/user/passkey', { headers: user.headers })).body.data.passkeys as Array<{ id: number; name: string }>;
    expect(listed.map((passkey) => passkey.name)).toEqual(['Laptop', 'Phone']);
    const [laptop, phoneKey] = listed;

    expect((await callApi(testApp, 'PUT', `/api/user/passkey/${phoneKey?.id}`, { headers: user.headers, body: { name: ' Work phone ' } })).body.success).toBe(
      true,
    );
    expect((await callApi(testApp, 'PUT', `/api/user/passkey/${phoneKey?.id}`, { headers: user.headers, body: { name: '' } })).body.success).toBe(false);
    const stranger = await createTestUser(testApp);
    expect((await callApi(testApp, 'PUT', `/api/user/passkey/${phoneKey?.id}`, { headers: stranger.headers, body: { name: 'mine' } })).body.message).toBe(
      '该 Passkey 不存在',
    );

    clock.advance(301);
    const deleteRefused = await callApi(testApp, 'DELETE', `/api/user/passkey/${laptop?.id}`, { headers: user.headers });
    expect(deleteRefused.body).toMatchObject({ success: false, code: 'verification_required' });
    // The other passkey re-verifies too; a wrong one does not.
    expect((await verifyWithPasskey(user, new SoftwareAuthenticator(origin))).body.success).toBe(false);
    expect((await verifyWithPasskey(user, phone)).body.success).toBe(true);
    expect((await callApi(testApp, 'DELETE', `/api/user/passkey/${laptop?.id}`, { headers: user.headers })).body).toEqual({
      success: true,
      message: 'Passkey 已解绑',
    });
    const left = (await callApi(testApp, 'GET', '/api/user/passkey', { headers: user.headers })).body.data.passkeys as Array<{ name: string }>;
    expect(left.map((passkey) => passkey.name)).toEqual(['Work phone']);
    expect((await passwordlessLogin(user.authenticator)).body.success).toBe(false);
    // new-api's DELETE /api/user/passkey removes all of them.
    expect((await callApi(testApp, 'DELETE', '/api/user/passkey', { headers: user.headers })).body.success).toBe(true);
    expect((await callApi(testApp, 'GET', '/api/user/passkey', { headers: user.headers })).body.data).toEqual({ enabled: false, passkeys: [] });
  });

  it("removes a passkey as new-api's console does, right after a passkey login, with no step of its own; a session older than the window is asked to re-verify", async () => {
    const user = await userWithPasskey();
    const signedIn = await passwordlessLogin(user.authenticator);
    expect(signedIn.body.success).toBe(true);
    const headers = sessionFrom(signedIn, user.id);
    // Our console's per-passkey route and new-api's bare one alike: the login was the verification.
    expect((await callApi(testApp, 'DELETE', '/api/user/passkey', { headers })).body).toEqual({ success: true, message: 'Passkey 已解绑' });
    expect((await callApi(testApp, 'GET', '/api/user/passkey', { headers })).body.data).toEqual({ enabled: false, passkeys: [] });

    const again = await userWithPasskey();
    const older = sessionFrom(await passwordlessLogin(again.authenticator), again.id);
    clock.advance(301);
    const refused = await callApi(testApp, 'DELETE', '/api/user/passkey', { headers: older, language: 'en' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, code: 'verification_required' });
    // A session a password alone started is not verified (the helper's session stands for one).
    expect((await callApi(testApp, 'DELETE', '/api/user/passkey', { headers: again.headers })).body).toMatchObject({ code: 'verification_required' });
    expect((await callApi(testApp, 'GET', '/api/user/passkey', { headers: again.headers })).body.data.enabled).toBe(true);
  });

  it('is a second factor: a password login asks for it, and the passkey completes that login once', async () => {
    const user = await userWithPasskey();
    const login = await post('/api/user/login', {}, { username: user.username, password: user.password });
    expect(login.body.data).toMatchObject({ require_2fa: true, methods: ['passkey'] });
    expect(login.cookies.some((cookie) => cookie.name === 'session')).toBe(false);
    const flowToken = login.body.data.flow_token as string;

    expect((await post('/api/user/passkey/login/begin', {}, { flow_token: 'unknown' })).body.message).toBe('会话已过期，请重新登录');
    const begin = await post('/api/user/passkey/login/begin', {}, { flow_token: flowToken });
    const allowed = begin.body.data.options.publicKey.allowCredentials as Array<{ id: string }>;
    expect(allowed.map((entry) => entry.id)).toEqual([user.authenticator.credentialIdBase64url]);
    // Another user's passkey cannot finish this login.
    const other = await userWithPasskey();
    expect((await post('/api/user/passkey/login/finish', {}, other.authenticator.authenticate(begin.body.data.options.publicKey))).body.success).toBe(false);

    const second = await post('/api/user/passkey/login/begin', {}, { flow_token: flowToken });
    const passed = await post(
      '/api/user/passkey/login/finish',
      {},
      user.authenticator.authenticate(second.body.data.options.publicKey, { userVerified: false }),
    );
    expect(passed.body).toMatchObject({ success: true, data: { id: user.id } });
    expect(passed.cookies.some((cookie) => cookie.name === 'session')).toBe(true);
    // The pending login is spent.
    expect((await post('/api/user/passkey/login/begin', {}, { flow_token: flowToken })).body.message).toBe('会话已过期，请重新登录');
    expect((await post('/api/user/login/2fa', {}, { code: '123456', flow_token: flowToken })).body.message).toBe('会话已过期，请重新登录');
  });

  it('asks a passkey user to re-verify before changing the e-mail, deleting the account or minting an access token', async () => {
    const user = await userWithPasskey();
    const token = await callApi(testApp, 'GET', '/api/user/token', { headers: user.headers, language: 'en' });
    expect(token.status).toBe(403);
    expect(token.body).toEqual({ success: false, message: 'Confirm with your two-factor code before doing this', code: 'verification_required' });
    const bind = await callApi(testApp, 'GET', '/api/oauth/email/bind?email=new.mail@example.com&code=123456', { headers: user.headers });
    expect(bind.body).toMatchObject({ success: false, code: 'verification_required' });
    const removal = await callApi(testApp, 'DELETE', '/api/user/self', { headers: user.headers });
    expect(removal.body).toMatchObject({ success: false, code: 'verification_required' });
    expect((await userRow(testApp, user.id)).deleted_at).toBeNull();
    expect((await userRow(testApp, user.id)).access_token).toBeNull();

    expect((await verifyWithPasskey(user, user.authenticator)).body.success).toBe(true);
    const minted = await callApi(testApp, 'GET', '/api/user/token', { headers: user.headers });
    expect(minted.body.data).toMatch(/^[0-9A-Za-z]{32}$/);
    // Past the second-factor gate, the e-mail code is what is checked now.
    expect((await callApi(testApp, 'GET', '/api/oauth/email/bind?email=new.mail@example.com&code=123456', { headers: user.headers })).body.message).toBe(
      '验证码错误或已过期',
    );
    expect((await callApi(testApp, 'DELETE', '/api/user/self', { headers: user.headers })).body.success).toBe(true);
    expect((await userRow(testApp, user.id)).deleted_at).not.toBeNull();

    // Without a second factor nothing changes for these actions.
    const plain = await createTestUser(testApp);
    expect((await callApi(testApp, 'GET', '/api/user/token', { headers: plain.headers })).body.success).toBe(true);
  });

  it("lets an administrator reset a user's passkeys (logged), never an equal role's, and counts users with a second factor", async () => {
    const user = await userWithPasskey();
    const admin = await createTestUser(testApp, { role: Role.admin });
    const otherAdmin = await createTestUser(testApp, { role: Role.admin });
    expect((await callApi(testApp, 'DELETE', `/api/user/${user.id}/reset_passkey`, { headers: user.headers })).status).toBe(403);
    expect((await callApi(testApp, 'DELETE', `/api/user/${otherAdmin.id}/reset_passkey`, { headers: admin.headers })).body.message).toBe(
      '无权操作同级或更高级用户的 Passkey',
    );
    const stats = await callApi(testApp, 'GET', '/api/user/2fa/stats', { headers: admin.headers });
    const { total_users: total, enabled_users: enabled } = stats.body.data as { total_users: number; enabled_users: number };
    expect(stats.body.data.enabled_rate).toBe(`${((enabled / total) * 100).toFixed(1)}%`);
    expect(enabled).toBeGreaterThanOrEqual(1);

    const reset = await callApi(testApp, 'DELETE', `/api/user/${user.id}/reset_passkey`, { headers: admin.headers });
    expect(reset.body).toEqual({ success: true, message: 'Passkey 已重置' });
    expect((await logsOf(testApp, user.id)).at(-1)).toMatchObject({
      type: LogType.manage,
      content: `管理员（${admin.username}，ID ${admin.id}）重置了用户的 Passkey（1 个）`,
    });
    expect((await passwordlessLogin(user.authenticator)).body.success).toBe(false);
    expect((await callApi(testApp, 'DELETE', `/api/user/${user.id}/reset_passkey`, { headers: admin.headers })).body.message).toBe('该用户尚未绑定 Passkey');
    expect((await callApi(testApp, 'GET', '/api/user/2fa/stats', { headers: admin.headers })).body.data.enabled_users).toBe(enabled - 1);
  });

  it('with TwoFactorRequiredForAdmins, sends an administrator without a second factor to enrol and refuses admin routes until then', async () => {
    const admin = await createTestUser(testApp, { role: Role.admin });
    const member = await createTestUser(testApp);
    await testApp.context.options.set('TwoFactorRequiredForAdmins', 'true');
    try {
      const login = await post('/api/user/login', {}, { username: admin.username, password: admin.password });
      expect(login.body.data).toMatchObject({ id: admin.id, require_second_factor_enrolment: true });
      const memberLogin = await post('/api/user/login', {}, { username: member.username, password: member.password });
      expect(memberLogin.body.data.require_second_factor_enrolment).toBeUndefined();

      const refused = await callApi(testApp, 'GET', '/api/user/', { headers: admin.headers, language: 'en' });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({
        success: false,
        message: 'Administrators must set up two-factor authentication or a passkey before using the admin functions',
        code: 'second_factor_required',
      });
      const root = await rootUser(testApp);
      expect((await callApi(testApp, 'GET', '/api/option/', { headers: root.headers })).body).toMatchObject({ code: 'second_factor_required' });
      // User routes, enrolment among them, still work.
      expect((await callApi(testApp, 'GET', '/api/user/self', { headers: admin.headers })).body.success).toBe(true);
      expect((await register(admin, new SoftwareAuthenticator(origin))).body.success).toBe(true);
      expect((await callApi(testApp, 'GET', '/api/user/', { headers: admin.headers })).body.success).toBe(true);
    } finally {
      await testApp.context.options.set('TwoFactorRequiredForAdmins', 'false');
    }
  });

  it("applies new-api's passkey settings: user verification, authenticator type and insecure origins", async () => {
    const root = await rootUser(testApp);
    const setting = (key: string, value: string) => callApi(testApp, 'PUT', '/api/option/', { headers: root.headers, body: { key, value }, language: 'en' });
    const user = await createTestUser(testApp);
    const authenticator = new SoftwareAuthenticator(origin);
    try {
      expect((await setting('passkey.user_verification', 'sometimes')).body).toEqual({
        success: false,
        message: 'passkey.user_verification must be one of required, preferred, discouraged',
      });
      expect((await setting('passkey.user_verification', 'required')).body.success).toBe(true);
      expect((await setting('passkey.attachment_preference', 'platform')).body.success).toBe(true);
      const begin = await post('/api/user/passkey/register/begin', user.headers, {});
      expect(begin.body.data.options.publicKey.authenticatorSelection).toMatchObject({ userVerification: 'required', authenticatorAttachment: 'platform' });
      // Required: an authenticator that only saw the user present is refused.
      expect((await register(user, authenticator, 'Key', { userVerified: false })).body.success).toBe(false);
      expect((await register(user, authenticator, 'Key')).body.success).toBe(true);

      expect((await setting('passkey.user_verification', 'discouraged')).body.success).toBe(true);
      expect((await setting('passkey.attachment_preference', '')).body.success).toBe(true);
      expect(await verifyWithPasskey(user, authenticator)).toMatchObject({ body: { success: true } });
      const again = (await post('/api/user/passkey/verify/begin', user.headers, {})).body.data.options.publicKey;
      expect(again.userVerification).toBe('discouraged');
      const anyType = (await post('/api/user/passkey/register/begin', user.headers, {})).body.data.options.publicKey.authenticatorSelection;
      expect(anyType.authenticatorAttachment).toBeUndefined();

      // An http origin other than this machine needs the switch.
      expect((await setting('passkey.origins', 'http://gateway.example')).body.success).toBe(true);
      expect((await post('/api/user/passkey/login/begin', {}, {}, 'en')).body).toEqual({
        success: false,
        message: 'Passkeys do not allow the insecure origin http://gateway.example: use HTTPS, or allow insecure origins in the passkey settings',
      });
      expect((await setting('passkey.allow_insecure_origin', 'true')).body.success).toBe(true);
      expect((await post('/api/user/passkey/login/begin', {}, {})).body.data.options.publicKey.rpId).toBe('gateway.example');
    } finally {
      for (const [key, value] of [
        ['passkey.user_verification', 'preferred'],
        ['passkey.attachment_preference', ''],
        ['passkey.origins', ''],
        ['passkey.allow_insecure_origin', 'false'],
      ] as const)
        await testApp.context.options.set(key, value);
    }
  });

  it('refuses every passkey route with a clear message when passkeys are turned off', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.options.set('passkey.enabled', 'false');
    try {
      expect((await post('/api/user/passkey/register/begin', user.headers, {}, 'en')).body).toEqual({
        success: false,
        message: 'Passkeys are turned off by the administrator',
      });
      expect((await post('/api/user/passkey/login/begin', {}, {})).body.message).toBe('管理员未启用 Passkey 登录');
      expect((await callApi(testApp, 'GET', '/api/status')).body.data.passkey_login).toBe(false);
    } finally {
      await testApp.context.options.set('passkey.enabled', 'true');
    }
  });
});
