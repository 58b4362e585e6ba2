import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi } from '../user/testing/account-test-kit.ts';

const agreement = '# 用户协议\n\nBe kind. <script>alert(1)</script>';
const policy = '# Privacy\n\nWe keep **little**.';

describe.each(testDatabases())('user agreement and privacy policy on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
  });
  beforeEach(async () => {
    await testApp.context.options.set('legal.user_agreement', '');
    await testApp.context.options.set('legal.privacy_policy', '');
  });

  const register = (username: string, extra: Record<string, unknown> = {}, language: 'en' | 'zh' = 'en') =>
    callApi(testApp, 'POST', '/api/user/register', { body: { username, password: 'password123', password2: 'password123', ...extra }, language });
  const userExists = async (username: string) =>
    (await testApp.context.database.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;
  const status = async () => (await callApi(testApp, 'GET', '/api/status')).body.data as Record<string, unknown>;

  it('answers both documents to anonymous visitors as stored, and flags them in the status', async () => {
    expect((await callApi(testApp, 'GET', '/api/user-agreement')).body).toEqual({ success: true, message: '', data: '' });
    expect(await status()).toMatchObject({ user_agreement_enabled: false, privacy_policy_enabled: false });

    const saved = await callApi(testApp, 'PUT', '/api/option/', { headers: root.headers, body: { key: 'legal.user_agreement', value: agreement } });
    expect(saved.body.success).toBe(true);
    await callApi(testApp, 'PUT', '/api/option/', { headers: root.headers, body: { key: 'legal.privacy_policy', value: policy } });

    expect((await callApi(testApp, 'GET', '/api/user-agreement')).body).toEqual({ success: true, message: '', data: agreement });
    expect((await callApi(testApp, 'GET', '/api/privacy-policy')).body).toEqual({ success: true, message: '', data: policy });
    expect(await status()).toMatchObject({ user_agreement_enabled: true, privacy_policy_enabled: true });
    const stored = await testApp.context.database.db.selectFrom('options').select('value').where('key', '=', 'legal.user_agreement').executeTakeFirst();
    expect(stored?.value).toBe(agreement);
  });

  it('lists both documents among the settings the administrator edits', async () => {
    await testApp.context.options.set('legal.privacy_policy', policy);
    const items = (await callApi(testApp, 'GET', '/api/option/', { headers: root.headers })).body.data as Array<{ key: string; value: string }>;
    expect(items).toContainEqual({ key: 'legal.privacy_policy', value: policy });
    expect(items).toContainEqual({ key: 'legal.user_agreement', value: '' });
  });

  it('registers without any consent while no document is published', async () => {
    expect((await register('freebird')).body).toEqual({ success: true, message: '' });
    expect(await userExists('freebird')).toBe(true);
  });

  it.each([
    ['user agreement', 'legal.user_agreement', agreement],
    ['privacy policy', 'legal.privacy_policy', policy],
  ])("registers a sign-up shaped as new-api's console sends it, without agreed_to_terms, while a %s is published", async (_name, key, value) => {
    await testApp.context.options.set(key, value);
    const username = key === 'legal.user_agreement' ? 'newapi1' : 'newapi2';
    // new-api's console shows the documents and posts the form's fields only.
    expect((await register(username, { email: '', verification_code: '', aff_code: '' })).body).toEqual({ success: true, message: '' });
    expect(await userExists(username)).toBe(true);
  });

  it("registers our console's sign-up, which says it accepted the documents", async () => {
    await testApp.context.options.set('legal.user_agreement', agreement);
    await testApp.context.options.set('legal.privacy_policy', policy);
    expect((await register('consents', { agreed_to_terms: true })).body).toEqual({ success: true, message: '' });
    expect(await userExists('consents')).toBe(true);
  });

  it('treats a document of only blank space as not published', async () => {
    await testApp.context.options.set('legal.user_agreement', '  \n ');
    expect(await status()).toMatchObject({ user_agreement_enabled: false });
  });
});
