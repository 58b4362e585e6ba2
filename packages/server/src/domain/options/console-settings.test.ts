import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi } from '../../entry/api/user/testing/account-test-kit.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

const announcements = [
  { content: 'Older notice', publishDate: '2025-10-01T08:00:00Z', type: 'default' },
  { content: 'Maintenance on Sunday', publishDate: '2025-12-01T08:00:00.000+08:00', type: 'warning', extra: 'about 10 minutes' },
];
const apiInfo = [{ url: 'https://api.example.com', route: 'Main line', description: 'For everyone', color: 'blue' }];
const faq = [{ question: 'How do I make a key?', answer: 'Tokens → Add token.' }];

describe.each(testDatabases())("new-api's dashboard settings on $dialect", (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let member: TestUser;

  const put = (key: string, value: unknown, language: 'zh' | 'en' = 'zh', as?: TestUser) =>
    callApi(testApp, 'PUT', '/api/option/', { headers: (as ?? root).headers, body: { key, value }, language });
  const status = async () => (await callApi(testApp, 'GET', '/api/status')).body.data as Record<string, unknown>;
  const optionList = async () =>
    new Map(
      ((await callApi(testApp, 'GET', '/api/option/', { headers: root.headers })).body.data as Array<{ key: string; value: string }>).map((item) => [
        item.key,
        item.value,
      ]),
    );

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    member = await createTestUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("lists every console_setting key with new-api's defaults: lists empty, panels on", async () => {
    const options = await optionList();
    for (const key of ['announcements', 'api_info', 'faq', 'uptime_kuma_groups', 'api_key_usage_tips']) expect(options.get(`console_setting.${key}`)).toBe('');
    for (const key of ['announcements', 'api_info', 'faq', 'uptime_kuma']) expect(options.get(`console_setting.${key}_enabled`)).toBe('true');
    expect(await status()).toMatchObject({
      announcements_enabled: true,
      api_info_enabled: true,
      faq_enabled: true,
      uptime_kuma_enabled: true,
      announcements: [],
      api_info: [],
      faq: [],
    });
  });

  it("stores the lists as new-api's console sends them and answers them in the status, announcements newest first", async () => {
    for (const [key, value] of [
      ['console_setting.announcements', announcements],
      ['console_setting.api_info', apiInfo],
      ['console_setting.faq', faq],
    ] as const) {
      expect((await put(key, JSON.stringify(value))).body).toEqual({ success: true, message: '' });
      expect((await optionList()).get(key)).toBe(JSON.stringify(value));
    }
    expect(await status()).toMatchObject({ announcements: [announcements[1], announcements[0]], api_info: apiInfo, faq });
  });

  it('takes the switches as the booleans the Dec-2025 console sends, and leaves a switched-off list out of the status', async () => {
    expect((await put('console_setting.faq_enabled', false)).body.success).toBe(true);
    expect((await put('console_setting.announcements_enabled', 'false')).body.success).toBe(true);
    const answer = await status();
    expect(answer).toMatchObject({ faq_enabled: false, announcements_enabled: false, api_info_enabled: true, api_info: apiInfo });
    expect(answer).not.toHaveProperty('faq');
    expect(answer).not.toHaveProperty('announcements');
    await put('console_setting.faq_enabled', true);
    await put('console_setting.announcements_enabled', true);
    expect((await status()).faq).toEqual(faq);
  });

  const long = (count: number) => 'x'.repeat(count);
  const refusals: Array<[key: string, value: unknown, zh: string, en: string]> = [
    ['console_setting.api_info', '{"url":1}', 'API信息格式错误：not an array', 'The API addresses are not a JSON list: not an array'],
    ['console_setting.api_info', JSON.stringify(Array.from({ length: 51 }, () => apiInfo[0])), 'API信息数量不能超过50个', 'At most 50 API addresses'],
    ['console_setting.api_info', JSON.stringify([apiInfo[0], { ...apiInfo[0], route: '' }]), '第2个API信息缺少线路描述字段', 'API address 2 has no route'],
    [
      'console_setting.api_info',
      JSON.stringify([{ ...apiInfo[0], url: 'ftp://files.example.com' }]),
      '第1个API信息的URL格式不正确',
      'The url of API address 1 is not an http(s) address',
    ],
    [
      'console_setting.api_info',
      JSON.stringify([{ ...apiInfo[0], color: 'gold' }]),
      '第1个API信息的颜色值不合法',
      'The color of API address 1 is not one of the offered colors',
    ],
    [
      'console_setting.api_info',
      JSON.stringify([{ ...apiInfo[0], description: 'see <SCRIPT>alert(1)</script>' }]),
      '第1个API信息包含不允许的内容',
      'API address 1 contains markup that is not allowed',
    ],
    ['console_setting.announcements', JSON.stringify([{ content: 'x' }]), '第1个公告缺少发布日期字段', 'Announcement 1 has no publishDate'],
    [
      'console_setting.announcements',
      JSON.stringify([{ content: 'x', publishDate: '2025-12-01' }]),
      '第1个公告的发布日期格式错误',
      'The publishDate of announcement 1 is not an RFC 3339 time',
    ],
    [
      'console_setting.announcements',
      JSON.stringify([{ content: 'x', publishDate: '2025-12-01T00:00:00Z', type: 'urgent' }]),
      '第1个公告的类型值不合法',
      'The type of announcement 1 must be default, ongoing, success, warning or error',
    ],
    [
      'console_setting.announcements',
      JSON.stringify([{ content: long(501), publishDate: '2025-12-01T00:00:00Z' }]),
      '第1个公告的内容长度不能超过500字符',
      'The content of announcement 1 is longer than 500 characters',
    ],
    ['console_setting.faq', JSON.stringify([{ question: 'q' }]), '第1个FAQ缺少答案字段', 'FAQ entry 1 has no answer'],
    [
      'console_setting.faq',
      JSON.stringify([{ question: 'q', answer: long(1001) }]),
      '第1个FAQ的答案长度不能超过1000字符',
      'The answer of FAQ entry 1 is longer than 1000 characters',
    ],
    [
      'console_setting.uptime_kuma_groups',
      JSON.stringify([
        { categoryName: 'Core', url: 'https://status.example.com', slug: 'core' },
        { categoryName: 'Core', url: 'https://status.example.com', slug: 'core2' },
      ]),
      '第2个分组的分类名称与其他分组重复',
      'The categoryName of group 2 is used by another group',
    ],
    [
      'console_setting.uptime_kuma_groups',
      JSON.stringify([{ categoryName: 'Core', url: 'https://status.example.com', slug: 'core/../admin' }]),
      '第1个分组的Slug只能包含字母、数字、下划线和连字符',
      'The slug of group 1 may only contain letters, digits, underscores and hyphens',
    ],
    [
      'console_setting.uptime_kuma_groups',
      JSON.stringify(Array.from({ length: 21 }, (_, index) => ({ categoryName: `g${index}`, url: 'https://status.example.com', slug: 'core' }))),
      'Uptime Kuma分组数量不能超过20个',
      'At most 20 Uptime Kuma groups',
    ],
    [
      'console_setting.uptime_kuma_enabled',
      'yes',
      'console_setting.uptime_kuma_enabled 只能是 true 或 false',
      'console_setting.uptime_kuma_enabled must be true or false',
    ],
  ];

  it.each(refusals)("refuses a bad %s with new-api's message in the caller's language and stores nothing", async (key, value, zh, en) => {
    const before = (await optionList()).get(key);
    expect((await put(key, value)).body).toEqual({ success: false, message: zh });
    expect((await put(key, value, 'en')).body).toEqual({ success: false, message: en });
    expect((await optionList()).get(key)).toBe(before);
  });

  it('counts lengths in characters as new-api does, not UTF-16 units', async () => {
    const emoji = '🙂'.repeat(500);
    expect((await put('console_setting.announcements', JSON.stringify([{ content: emoji, publishDate: '2025-12-01T00:00:00Z' }]))).body.success).toBe(true);
    expect((await put('console_setting.announcements', JSON.stringify(announcements))).body.success).toBe(true);
  });

  it('clears a list with an empty value, and lets only root write these settings', async () => {
    expect((await put('console_setting.faq', '')).body.success).toBe(true);
    expect((await status()).faq).toEqual([]);
    const refused = await put('console_setting.faq', JSON.stringify(faq), 'en', member);
    expect(refused.body.success).toBe(false);
    expect((await optionList()).get('console_setting.faq')).toBe('');
  });
});
