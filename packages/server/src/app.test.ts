import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp } from './testing/test-app.ts';
import { testDatabases } from './testing/test-databases.ts';

describe.each(testDatabases())('application on $dialect', (database) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('serves the status object built from options', async () => {
    const response = await testApp.app.inject({ method: 'GET', url: '/api/status' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-oneapi-request-id']).toMatch(/^\d{14}[0-9a-f]{16}$/);
    const body = response.json();
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({
      system_name: 'Switchboard',
      quota_per_unit: 500000,
      display_in_currency: true,
      enable_drawing: true,
      min_topup: 1,
      price: 7.3,
      github_oauth: false,
      enable_online_topup: false,
    });
    expect(Array.isArray(body.data.chats)).toBe(true);
  });

  it("answers new-api's quota display type, read as TOKENS while DisplayInCurrencyEnabled is off", async () => {
    const status = async () => (await testApp.app.inject({ method: 'GET', url: '/api/status' })).json().data;
    expect(await status()).toMatchObject({ quota_display_type: 'USD', usd_exchange_rate: 7.3, custom_currency_symbol: '¤', custom_currency_exchange_rate: 1 });
    await testApp.context.options.set('general_setting.quota_display_type', 'CNY');
    expect((await status()).quota_display_type).toBe('CNY');
    await testApp.context.options.set('DisplayInCurrencyEnabled', 'false');
    expect(await status()).toMatchObject({ quota_display_type: 'TOKENS', display_in_currency: false });
    await testApp.context.options.set('DisplayInCurrencyEnabled', 'true');
    await testApp.context.options.set('general_setting.quota_display_type', 'USD');
  });

  it('reflects an option change at once', async () => {
    await testApp.context.options.set('SystemName', 'Relay Co');
    const body = (await testApp.app.inject({ method: 'GET', url: '/api/status' })).json();
    expect(body.data.system_name).toBe('Relay Co');
  });

  it('answers unknown /api paths with the envelope and unknown relay paths with an OpenAI error', async () => {
    const api = await testApp.app.inject({ method: 'GET', url: '/api/no-such-thing', headers: { 'accept-language': 'en' } });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ success: false, message: 'No such API route: /api/no-such-thing' });
    const relay = await testApp.app.inject({ method: 'POST', url: '/v1/no-such-thing' });
    expect(relay.statusCode).toBe(404);
    expect(relay.json().error).toMatchObject({ type: 'new_api_error', code: 'not_found' });
    expect(relay.json().error.message).toContain('(request id: ');
  });

  it('refuses malformed JSON in the caller language', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/status', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, message: '请求体不是合法的 JSON' });
  });

  it('created exactly one super administrator', async () => {
    const rows = await testApp.context.database.db.selectFrom('users').select(['username', 'role', 'quota']).execute();
    expect(rows).toEqual([{ username: 'root', role: Role.root, quota: 100_000_000 }]);
    const root = await rootUser(testApp);
    expect(root.id).toBeGreaterThan(0);
  });

  it('seeds every option key with its default', async () => {
    const count = await testApp.context.database.db
      .selectFrom('options')
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const { optionKeys } = await import('@switchboard/contracts');
    expect(Number(count.n)).toBe(optionKeys.length);
  });

  it('creates users through the helper and authenticates their session', async () => {
    const user = await createTestUser(testApp, { role: Role.admin });
    const { users } = await import('./core/db/table-definitions.ts');
    expect(users.name).toBe('users');
    expect(user.id).toBeGreaterThan(1);
    expect(user.headers.cookie).toMatch(/^session=/);
  });
});
