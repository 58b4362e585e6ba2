import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@switchboard/contracts';
import { callApi, userRow } from '../../entry/api/user/testing/account-test-kit.ts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

/** What new-api's Dec-2025 console sends from its notification tab (PersonalSetting → NotificationSettings). */
function consoleBody(fields: Record<string, unknown>): Record<string, unknown> {
  return {
    notify_type: 'email',
    quota_warning_threshold: 500000,
    webhook_url: '',
    webhook_secret: '',
    notification_email: '',
    bark_url: '',
    gotify_url: '',
    gotify_token: '',
    gotify_priority: 5,
    upstream_model_update_notify_enabled: false,
    accept_unset_model_ratio_model: false,
    record_ip_log: false,
    ...fields,
  };
}

describe.each(testDatabases())('personal notification settings (PUT /api/user/setting) on $dialect', (database) => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp(database);
  });
  afterAll(async () => {
    await testApp.close();
  });

  async function storedSetting(userId: number): Promise<Record<string, unknown>> {
    const { setting } = await userRow(testApp, userId);
    return setting ? (JSON.parse(setting) as Record<string, unknown>) : {};
  }

  async function save(user: TestUser, fields: Record<string, unknown>, language: 'zh' | 'en' = 'zh') {
    return callApi(testApp, 'PUT', '/api/user/setting', { headers: user.headers, body: consoleBody(fields), language });
  }

  /** The setting the console reads back after saving (GET /api/user/self → data.setting, a JSON text). */
  async function settingReadBack(user: TestUser): Promise<Record<string, unknown>> {
    const self = await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers });
    expect(typeof self.body.data.setting).toBe('string');
    return self.body.data.setting ? (JSON.parse(self.body.data.setting as string) as Record<string, unknown>) : {};
  }

  it("saves the console's e-mail settings beside the fields already there, answers in the caller's language, and reads them back", async () => {
    const user = await createTestUser(testApp);
    const other = await createTestUser(testApp);
    const otherSetting = JSON.stringify({ notify_type: 'webhook', webhook_url: 'https://other.example.com/hook', quota_warning_threshold: 7 });
    await testApp.context.database.db.updateTable('users').set({ setting: otherSetting }).where('id', '=', other.id).execute();
    await testApp.context.database.db
      .updateTable('users')
      .set({ setting: JSON.stringify({ language: 'en', sidebar_modules: '{"chat":{"enabled":true}}' }) })
      .where('id', '=', user.id)
      .execute();
    expect((await settingReadBack(user)).language).toBe('en');

    const saved = await save(user, { notification_email: 'alerts@example.com', accept_unset_model_ratio_model: true, record_ip_log: true });
    expect(saved.body).toEqual({ success: true, message: '设置已更新' });
    expect(await storedSetting(user.id)).toEqual({
      language: 'en',
      sidebar_modules: '{"chat":{"enabled":true}}',
      notify_type: 'email',
      quota_warning_threshold: 500000,
      notification_email: 'alerts@example.com',
      gotify_priority: 0,
      accept_unset_model_ratio_model: true,
      record_ip_log: true,
    });
    expect(await settingReadBack(user)).toMatchObject({ notify_type: 'email', notification_email: 'alerts@example.com', record_ip_log: true });
    expect((await save(user, { quota_warning_threshold: 1.5 }, 'en')).body).toEqual({ success: true, message: 'Settings updated' });
    // The flags are new-api's omitempty booleans: switched off, they are absent.
    expect(await storedSetting(user.id)).not.toHaveProperty('record_ip_log');
    expect(await storedSetting(user.id)).not.toHaveProperty('notification_email');
    expect((await userRow(testApp, other.id)).setting).toBe(otherSetting);
  });

  it('stores a webhook where the alerts read it, keeps its secret out of every answer and keeps it on a save without one', async () => {
    const user = await createTestUser(testApp);
    const webhook = 'https://hooks.example.com/notify?user=1';
    expect(
      (await save(user, { notify_type: 'webhook', webhook_url: webhook, webhook_secret: 's3cret-value', quota_warning_threshold: 2500 })).body.success,
    ).toBe(true);
    expect(await storedSetting(user.id)).toMatchObject({ notify_type: 'webhook', webhook_url: webhook, webhook_secret: 's3cret-value' });

    const budget = await callApi(testApp, 'GET', '/api/budget/self', { headers: user.headers });
    expect(budget.body.data).toMatchObject({ quota_warning_threshold: 2500, own_threshold: true, webhook_url: webhook, webhook_secret_set: true });
    const readBack = await settingReadBack(user);
    expect(readBack).toMatchObject({ notify_type: 'webhook', webhook_url: webhook });
    expect(readBack).not.toHaveProperty('webhook_secret');
    expect(JSON.stringify((await callApi(testApp, 'GET', '/api/user/self', { headers: user.headers })).body)).not.toContain('s3cret-value');

    // The console re-saves its form with the secret field empty (it never received it): the secret stays.
    expect((await save(user, { notify_type: 'webhook', webhook_url: webhook, quota_warning_threshold: 3000 })).body.success).toBe(true);
    expect(await storedSetting(user.id)).toMatchObject({ webhook_url: webhook, webhook_secret: 's3cret-value', quota_warning_threshold: 3000 });
    // Another type drops the webhook address, so no alert is posted to it any more.
    expect((await save(user, {})).body.success).toBe(true);
    expect(await storedSetting(user.id)).not.toHaveProperty('webhook_url');
    expect((await callApi(testApp, 'GET', '/api/budget/self', { headers: user.headers })).body.data.webhook_url).toBe('');
  });

  it('stores Bark and Gotify addresses, hides the Gotify token and keeps it when the console sends it empty', async () => {
    const user = await createTestUser(testApp);
    const bark = 'https://api.day.app/device-key/{{title}}/{{content}}';
    expect((await save(user, { notify_type: 'bark', bark_url: bark })).body.success).toBe(true);
    expect(await storedSetting(user.id)).toMatchObject({ notify_type: 'bark', bark_url: bark });

    expect(
      (await save(user, { notify_type: 'gotify', gotify_url: 'https://gotify.example.com', gotify_token: 'gotify-app-token', gotify_priority: 42 })).body
        .success,
    ).toBe(true);
    expect(await storedSetting(user.id)).toMatchObject({
      notify_type: 'gotify',
      gotify_url: 'https://gotify.example.com',
      gotify_token: 'gotify-app-token',
      gotify_priority: 5,
    });
    expect(await storedSetting(user.id)).not.toHaveProperty('bark_url');
    expect(await settingReadBack(user)).not.toHaveProperty('gotify_token');
    expect((await save(user, { notify_type: 'gotify', gotify_url: 'https://gotify.example.com', gotify_priority: 8 })).body.success).toBe(true);
    expect(await storedSetting(user.id)).toMatchObject({ gotify_token: 'gotify-app-token', gotify_priority: 8 });
  });

  it('lets only administrators choose the upstream model update notice', async () => {
    const member = await createTestUser(testApp);
    const admin = await createTestUser(testApp, { role: Role.admin });
    expect((await save(member, { upstream_model_update_notify_enabled: true })).body.success).toBe(true);
    expect((await save(admin, { upstream_model_update_notify_enabled: true })).body.success).toBe(true);
    expect(await storedSetting(member.id)).not.toHaveProperty('upstream_model_update_notify_enabled');
    expect(await storedSetting(admin.id)).toMatchObject({ upstream_model_update_notify_enabled: true });
  });

  it("refuses bad input with new-api's messages in the caller's language and changes nothing", async () => {
    const user = await createTestUser(testApp);
    expect((await save(user, { notification_email: 'kept@example.com' })).body.success).toBe(true);
    const before = (await userRow(testApp, user.id)).setting;
    const refusals: Array<[Record<string, unknown>, string, string]> = [
      [{ notify_type: 'sms' }, '无效的预警类型', 'Invalid warning type'],
      [{ notify_type: '' }, '无效的预警类型', 'Invalid warning type'],
      [{ quota_warning_threshold: 0 }, '预警阈值必须大于 0', 'Warning threshold must be greater than 0'],
      [{ quota_warning_threshold: -10 }, '预警阈值必须大于 0', 'Warning threshold must be greater than 0'],
      // parseFloat('') is NaN, which JSON.stringify sends as null.
      [{ quota_warning_threshold: null }, '预警阈值必须大于 0', 'Warning threshold must be greater than 0'],
      [{ notify_type: 'webhook', webhook_url: '' }, 'Webhook地址不能为空', 'Webhook URL cannot be empty'],
      [{ notify_type: 'webhook', webhook_url: 'hooks.example.com/x' }, '无效的Webhook地址', 'Invalid Webhook URL'],
      [{ notify_type: 'webhook', webhook_url: 'ftp://hooks.example.com/x' }, 'URL必须以http://或https://开头', 'URL must start with http:// or https://'],
      [
        { notify_type: 'webhook', webhook_url: 'http://127.0.0.1:8080/hook' },
        '不允许访问内网、本机或保留地址：127.0.0.1',
        'Private, loopback and reserved addresses are not allowed: 127.0.0.1',
      ],
      [{ notify_type: 'email', notification_email: 'not-an-address' }, '无效的邮箱地址', 'Invalid email address'],
      [{ notify_type: 'email', notification_email: 'a@b@c' }, '无效的邮箱地址', 'Invalid email address'],
      [{ notify_type: 'bark', bark_url: '' }, 'Bark推送URL不能为空', 'Bark push URL cannot be empty'],
      [{ notify_type: 'bark', bark_url: 'day.app/key' }, '无效的Bark推送URL', 'Invalid Bark push URL'],
      [{ notify_type: 'bark', bark_url: 'javascript:alert(1)' }, 'URL必须以http://或https://开头', 'URL must start with http:// or https://'],
      [
        { notify_type: 'bark', bark_url: 'http://10.1.2.3/push' },
        '不允许访问内网、本机或保留地址：10.1.2.3',
        'Private, loopback and reserved addresses are not allowed: 10.1.2.3',
      ],
      [{ notify_type: 'gotify', gotify_url: '' }, 'Gotify服务器地址不能为空', 'Gotify server URL cannot be empty'],
      [{ notify_type: 'gotify', gotify_url: 'https://gotify.example.com', gotify_token: '' }, 'Gotify令牌不能为空', 'Gotify token cannot be empty'],
      [{ notify_type: 'gotify', gotify_url: 'gotify', gotify_token: 't' }, '无效的Gotify服务器地址', 'Invalid Gotify server URL'],
    ];
    for (const [fields, zh, en] of refusals) {
      expect((await save(user, fields)).body, JSON.stringify(fields)).toMatchObject({ success: false, message: zh });
      expect((await save(user, fields, 'en')).body, JSON.stringify(fields)).toMatchObject({ success: false, message: en });
    }
    // A field of the wrong type is a 400 naming it, as every body here.
    const wrongType = await save(user, { quota_warning_threshold: '500000' }, 'en');
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ success: false, message: expect.stringContaining('quota_warning_threshold') as unknown as string });
    expect((await userRow(testApp, user.id)).setting).toBe(before);
  });

  it('is refused without a login', async () => {
    const answer = await callApi(testApp, 'PUT', '/api/user/setting', { body: consoleBody({}) });
    expect(answer.body.success).toBe(false);
  });
});
