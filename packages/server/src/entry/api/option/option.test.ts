import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionDefinitions } from '@switchboard/contracts';
import { createTestApp, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callApi } from '../user/testing/account-test-kit.ts';

describe.each(testDatabases())('settings on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const put = (key: string, value: unknown, language?: 'en') =>
    callApi(testApp, 'PUT', '/api/option/', { headers: root.headers, body: { key, value }, ...(language ? { language } : {}) });
  const stored = async (key: string) =>
    (await testApp.context.database.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

  it('lists settings without any secret, including secrets of imported keys', async () => {
    await put('SMTPToken', 'smtp-secret-value');
    await put('TurnstileSiteKey', 'public-site-key');
    await testApp.context.database.db
      .insertInto('options')
      .values([
        { key: 'LegacyApiSecret', value: 'hidden' },
        { key: 'LegacyNotice', value: 'shown' },
      ])
      .execute();
    await testApp.context.options.reload();
    const answer = await callApi(testApp, 'GET', '/api/option/', { headers: root.headers });
    const items = new Map((answer.body.data as Array<{ key: string; value: string }>).map((item) => [item.key, item.value]));
    for (const key of [
      'SMTPToken',
      'GitHubClientSecret',
      'TurnstileSecretKey',
      'EpayKey',
      'WeChatServerToken',
      'TelegramBotToken',
      'LinuxDOClientSecret',
      'WorkerValidKey',
      'LegacyApiSecret',
    ]) {
      expect(items.has(key), key).toBe(false);
    }
    expect(items.get('TurnstileSiteKey')).toBe('public-site-key');
    expect(items.get('LegacyNotice')).toBe('shown');
    expect(JSON.stringify(answer.body)).not.toContain('smtp-secret-value');
  });

  const refusals: Array<[string, unknown, string]> = [
    ['PasswordLoginEnabled', 'yes', 'PasswordLoginEnabled 只能是 true 或 false'],
    ['MinTopUp', 0, 'MinTopUp 不能小于 1'],
    ['Price', -1, 'Price 不能小于 0'],
    ['QuotaForNewUser', '1.5', 'QuotaForNewUser 必须是整数'],
    ['DataExportInterval', 0, 'DataExportInterval 不能小于 1'],
    ['QuotaRemindThreshold', -5, 'QuotaRemindThreshold 不能小于 0'],
    ['GroupRatio', '{"default": 1,', 'GroupRatio 不是合法的 JSON 字符串'],
    ['ModelPrice', 'not json', 'ModelPrice 不是合法的 JSON 字符串'],
    ['CompletionRatio', '{"gpt-4o": 4', 'CompletionRatio 不是合法的 JSON 字符串'],
    ['UserUsableGroups', '{', 'UserUsableGroups 不是合法的 JSON 字符串'],
    ['Chats', '[{"x": 1}', 'Chats 不是合法的 JSON 字符串'],
    ['ChannelDisableThreshold', -1, 'ChannelDisableThreshold 不能小于 0'],
    ['QuotaForNewUser', -1, 'QuotaForNewUser 不能小于 0'],
    ['SMTPPort', 70000, 'SMTPPort 不能大于 65535'],
    ['ModelRatio', '{"gpt-4o": "cheap"}', 'ModelRatio 的 JSON 格式不正确：{"name": number ≥ 0}'],
    ['Chats', '{"a": 1}', 'Chats 的 JSON 格式不正确：array'],
    ['UserUsableGroups', '[1]', 'UserUsableGroups 的 JSON 格式不正确：{"name": "text"}'],
    ['TopupGroupRatio', 'nope', '充值分组倍率不是合法的 JSON 字符串'],
    ['DataExportDefaultTime', 'year', 'DataExportDefaultTime 只能是 hour, day, week 之一'],
    ['general_setting.quota_display_type', 'EUR', 'general_setting.quota_display_type 只能是 USD, CNY, TOKENS, CUSTOM 之一'],
    ['NoSuchSetting', 'x', '未知的配置项：NoSuchSetting'],
    ['fetch_setting.allowed_ports', '["80", "70000"]', '端口设置不正确："70000"（示例：80、8000-9000）'],
    ['fetch_setting.allowed_ports', '["9000-8000"]', '端口设置不正确："9000-8000"（示例：80、8000-9000）'],
    ['fetch_setting.ip_list', '["10.0.0.0/33"]', 'IP 设置不正确："10.0.0.0/33"（示例：10.0.0.1、10.0.0.0/8、fd00::/8）'],
    ['fetch_setting.ip_list', '"10.0.0.1"', 'fetch_setting.ip_list 的 JSON 格式不正确：["…"]'],
    ['fetch_setting.domain_list', '["http://example.com"]', '域名设置不正确："http://example.com"（示例：example.com、*.example.com）'],
    ['fetch_setting.enable_ssrf_protection', 'off', 'fetch_setting.enable_ssrf_protection 只能是 true 或 false'],
    ['GitHubOAuthEnabled', 'true', '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！'],
    ['LinuxDOOAuthEnabled', 'true', '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！'],
    ['WeChatAuthEnabled', 'true', '无法启用微信登录，请先填入微信登录相关配置信息！'],
    ['TelegramOAuthEnabled', 'true', '无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Bot 名称！'],
    ['TurnstileCheckEnabled', 'true', '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！'],
    ['EmailVerificationEnabled', 'true', '无法启用邮箱验证，请先填入 SMTP 相关配置信息！'],
    ['TopUpLink', 'javascript:alert(document.cookie)', 'TopUpLink 必须是以 http:// 或 https:// 开头的链接'],
    ['ChatLink', ' Java\tScript:alert(1)', 'ChatLink 必须是以 http:// 或 https:// 开头的链接'],
    ['ChatLink2', 'data:text/html,<script>alert(1)</script>', 'ChatLink2 必须是以 http:// 或 https:// 开头的链接'],
    ['ServerAddress', 'gateway.example.com', 'ServerAddress 必须是以 http:// 或 https:// 开头的链接'],
    ['PayAddress', 'vbscript:msgbox(1)', 'PayAddress 必须是以 http:// 或 https:// 开头的链接'],
    ['CustomCallbackAddress', 'file:///etc/passwd', 'CustomCallbackAddress 必须是以 http:// 或 https:// 开头的链接'],
    ['WorkerUrl', 'ftp://worker.example.com', 'WorkerUrl 必须是以 http:// 或 https:// 开头的链接'],
    ['WeChatServerAddress', 'javascript:alert(1)', 'WeChatServerAddress 必须是以 http:// 或 https:// 开头的链接'],
    ['Logo', 'javascript:alert(1)', 'Logo 必须是以 http:// 或 https:// 开头的链接，或本站路径'],
    [
      'WeChatAccountQRCodeImageURL',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'WeChatAccountQRCodeImageURL 必须是以 http:// 或 https:// 开头的链接，或本站路径',
    ],
    [
      'Chats',
      '[{"Evil": "javascript:alert(1)"}]',
      '聊天链接 Evil 只能是 http(s) 链接或这些应用的链接：cherrystudio://, aionui://, ama://, opencat://, ccswitch://',
    ],
    [
      'Chats',
      '[{"Lobe": "https://lobe.example/?k={key}"}, {"Evil": "data:text/html,x"}]',
      '聊天链接 Evil 只能是 http(s) 链接或这些应用的链接：cherrystudio://, aionui://, ama://, opencat://, ccswitch://',
    ],
    [
      'Chats',
      '[{"Evil": "VBScript:msgbox(1)"}]',
      '聊天链接 Evil 只能是 http(s) 链接或这些应用的链接：cherrystudio://, aionui://, ama://, opencat://, ccswitch://',
    ],
    [
      'Chats',
      '[{"Evil": "file:///etc/passwd"}]',
      '聊天链接 Evil 只能是 http(s) 链接或这些应用的链接：cherrystudio://, aionui://, ama://, opencat://, ccswitch://',
    ],
    [
      'Chats',
      '[{"Fluent Read": "fluentread"}]',
      '聊天链接 Fluent Read 只能是 http(s) 链接或这些应用的链接：cherrystudio://, aionui://, ama://, opencat://, ccswitch://',
    ],
  ];

  it.each(refusals)('refuses %s = %j and changes nothing', async (key, value, message) => {
    const before = await stored(key);
    expect((await put(key, value)).body).toEqual({ success: false, message });
    expect(await stored(key)).toBe(before);
  });

  it('answers refusals in English when asked', async () => {
    expect((await put('MinTopUp', 0, 'en')).body.message).toBe('MinTopUp must be at least 1');
    expect((await put('TopUpLink', 'javascript:alert(1)', 'en')).body.message).toBe('TopUpLink must be a link starting with http:// or https://');
    expect((await put('Chats', '[{"Evil": "javascript:alert(1)"}]', 'en')).body.message).toBe(
      'Chat link Evil must be an http(s) link or an app link: cherrystudio://, aionui://, ama://, opencat://, ccswitch://',
    );
  });

  it("saves the outgoing-request lists in new-api's shapes (ports and ranges, addresses and blocks, domains and wildcards)", async () => {
    const saved: Array<[string, string]> = [
      ['fetch_setting.allowed_ports', '["80", "443", "8000-9000", 8443]'],
      ['fetch_setting.ip_list', '["10.0.0.5", "192.168.1.0/24", "fd00::/8"]'],
      ['fetch_setting.domain_list', '["example.com", "*.example.com", "hooks.example.org."]'],
      ['fetch_setting.allowed_ports', '[]'],
    ];
    for (const [key, value] of saved) {
      expect((await put(key, value)).body, key).toEqual({ success: true, message: '' });
      expect(await stored(key)).toBe(value);
    }
  });

  it('saves web links, image paths and the chat front ends new-api links to', async () => {
    const saved: Array<[string, string]> = [
      ['TopUpLink', 'https://shop.example/codes'],
      ['ChatLink', 'http://127.0.0.1:3001'],
      ['TopUpLink', ''],
      ['Logo', '/logo.svg?custom'],
      ['Logo', 'https://cdn.example/logo.png'],
      ['WeChatAccountQRCodeImageURL', 'https://cdn.example/qr.png'],
      ['Chats', optionDefinitions.Chats.defaultValue],
    ];
    for (const [key, value] of saved) {
      expect((await put(key, value)).body, key).toEqual({ success: true, message: '' });
      expect(await stored(key)).toBe(value);
    }
    const newApiChats = [
      { 'Cherry Studio': 'cherrystudio://providers/api-keys?v=1&data={cherryConfig}' },
      { AionUI: 'aionui://provider/add?v=1&data={aionuiConfig}' },
      { 'CC Switch': 'ccswitch://v1/import?resource=provider&endpoint={address}&apiKey={key}' },
      { 'AI as Workspace': 'https://aiaw.app/set-provider?provider={"type":"openai","settings":{"apiKey":"{key}","baseURL":"{address}/v1"}}' },
      { AMA: 'ama://set-api-key?server={address}&key={key}' },
      { OpenCat: 'opencat://team/join?domain={address}&token={key}' },
    ];
    expect((await put('Chats', JSON.stringify(newApiChats))).body.success).toBe(true);
    // A broken shape is still saved: the console says the chat links are misconfigured (spec, chat pages).
    expect((await put('Chats', '[{"Broken": 1}]')).body.success).toBe(true);
    await put('Chats', optionDefinitions.Chats.defaultValue);
  });

  it("saves the payment settings before ServerAddress, as new-api's server does (its console saves them in any order)", async () => {
    expect(testApp.context.options.get('ServerAddress')).toBe('');
    for (const [key, value] of [
      ['PayAddress', 'https://pay.example.com'],
      ['EpayId', '1001'],
      ['EpayKey', 'merchant-secret'],
      ['CustomCallbackAddress', 'https://callback.example.com'],
    ]) {
      expect((await put(key ?? '', value)).body, key).toEqual({ success: true, message: '' });
      expect(await stored(key ?? ''), key).toBe(value);
    }
    for (const key of ['PayAddress', 'EpayId', 'EpayKey', 'CustomCallbackAddress']) await testApp.context.options.set(key, '');
  });

  it('trims trailing slashes, keeps empty secrets unchanged and applies changes at once', async () => {
    expect((await put('ServerAddress', 'https://gateway.example.com//')).body.success).toBe(true);
    expect(await stored('ServerAddress')).toBe('https://gateway.example.com');
    expect((await put('WeChatServerAddress', 'http://wechat.example.com/')).body.success).toBe(true);
    expect(testApp.context.options.get('WeChatServerAddress')).toBe('http://wechat.example.com');
    expect((await put('WorkerUrl', 'https://worker.example.com/')).body.success).toBe(true);
    expect(await stored('WorkerUrl')).toBe('https://worker.example.com');
    expect((await put('PayAddress', 'https://pay.example.com/')).body.success).toBe(true);
    expect(await stored('PayAddress')).toBe('https://pay.example.com');

    expect((await put('SMTPToken', 'kept-secret')).body.success).toBe(true);
    expect((await put('SMTPToken', '')).body.success).toBe(true);
    expect(await stored('SMTPToken')).toBe('kept-secret');

    expect((await put('SystemName', 'Gateway Co')).body.success).toBe(true);
    expect((await callApi(testApp, 'GET', '/api/status')).body.data.system_name).toBe('Gateway Co');
    expect((await put('QuotaPerUnit', 1000)).body.success).toBe(true);
    expect(testApp.context.options.getNumber('QuotaPerUnit')).toBe(1000);
    await put('QuotaPerUnit', 500000);
  });

  it('enables a login method once its configuration is filled in', async () => {
    expect((await put('GitHubClientId', 'client-id')).body.success).toBe(true);
    expect((await put('GitHubOAuthEnabled', true)).body.message).toContain('GitHub');
    expect((await put('GitHubClientSecret', 'client-secret')).body.success).toBe(true);
    expect((await put('GitHubOAuthEnabled', true)).body.success).toBe(true);
    expect((await callApi(testApp, 'GET', '/api/status')).body.data).toMatchObject({ github_oauth: true, github_client_id: 'client-id' });
    await put('GitHubOAuthEnabled', false);
  });

  it('resets the model ratios to the defaults', async () => {
    expect((await put('ModelRatio', '{"custom-model": 3}')).body.success).toBe(true);
    expect((await callApi(testApp, 'POST', '/api/option/rest_model_ratio', { headers: root.headers })).body.success).toBe(true);
    expect(await stored('ModelRatio')).toBe(optionDefinitions.ModelRatio.defaultValue);
  });
});
