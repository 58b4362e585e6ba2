import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { optionDefinitions } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

/**
 * What the shapes alone do not show: the later dialect's totals and page numbers are right, and
 * the settings and routes of new-api's later console do what they do there.
 */
describe.each(testDatabases())('the later list dialect and its routes on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let member: TestUser;

  const call = async (as: TestUser | undefined, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
    const response = await testApp.app.inject({
      method,
      url,
      headers: { ...(as?.headers ?? {}), 'accept-language': 'en' },
      ...(payload === undefined ? {} : { payload }),
    });
    const parsed = safeParseJson(response.body);
    return { status: response.statusCode, body: (parsed.ok ? parsed.value : {}) as { success: boolean; message: string; data?: unknown } };
  };
  const data = async (as: TestUser | undefined, url: string) => (await call(as, 'GET', url)).body.data;
  const paged = (on: boolean) => testApp.context.options.set('PagedListsEnabled', on ? 'true' : 'false');

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    member = await createTestUser(testApp, { group: 'vip' });
    for (const name of ['one', 'two', 'three']) expect((await call(member, 'POST', '/api/token/', { name })).body.success).toBe(true);
    for (const [type, name] of [
      [1, 'a'],
      [1, 'b'],
      [14, 'c'],
    ] as const)
      expect(
        (await call(root, 'POST', '/api/channel/', { type, name, key: 'sk-x', models: type === 1 ? 'gpt-4o' : 'claude-3', group: 'default' })).body.success,
      ).toBe(true);
  });
  afterAll(async () => testApp.close());

  it('pages from 1 with the total when on, from 0 as a bare array when off', async () => {
    await paged(true);
    expect(await data(member, '/api/token/?p=1&size=2')).toMatchObject({ total: 3, page: 1, page_size: 2, items: [{ name: 'three' }, { name: 'two' }] });
    expect(await data(member, '/api/token/?p=2&size=2')).toMatchObject({ total: 3, page: 2, items: [{ name: 'one' }] });
    expect(await data(member, '/api/token/search?keyword=t&p=1&size=1')).toMatchObject({ total: 2, page: 1, items: [{ name: 'three' }] });
    expect(await data(root, '/api/channel/?p=1&page_size=2')).toMatchObject({ total: 3, page: 1, page_size: 2, type_counts: { 1: 2, 14: 1 } });
    expect(await data(root, '/api/user/?p=1&page_size=1')).toMatchObject({ total: 2, page: 1, items: [{ id: member.id }] });
    await paged(false);
    const classic = (await data(member, '/api/token/?p=1&size=2')) as Array<{ name: string }>;
    expect(classic.map((token) => token.name)).toEqual(['one']);
    expect(await data(root, '/api/status')).toMatchObject({ paged_lists: false, default_use_auto_group: false });
  });

  it('lists the models enabled channels serve', async () => {
    expect(await data(root, '/api/channel/models_enabled')).toEqual(['claude-3', 'gpt-4o']);
  });

  it('keeps prefill groups with unique names, and deletes them softly', async () => {
    const created = await call(root, 'POST', '/api/prefill_group', { name: 'fast', type: 'model', items: ['gpt-4o'] });
    expect(created.body).toMatchObject({ success: true, data: { name: 'fast', type: 'model', items: ['gpt-4o'], description: '' } });
    const id = (created.body.data as { id: number }).id;
    expect((await call(root, 'POST', '/api/prefill_group', { name: 'fast', type: 'tag' })).body).toEqual({
      success: false,
      message: 'A group with this name already exists',
    });
    expect((await call(root, 'POST', '/api/prefill_group', { name: '', type: 'tag' })).body).toEqual({
      success: false,
      message: 'The group name and type must not be empty',
    });
    expect((await call(root, 'PUT', '/api/prefill_group', { id, items: ['gpt-4o', 'o3'] })).body.data).toMatchObject({ name: 'fast', items: ['gpt-4o', 'o3'] });
    expect(await data(root, '/api/prefill_group?type=tag')).toEqual([]);
    expect((await call(member, 'GET', '/api/prefill_group')).status).toBe(403);
    expect((await call(root, 'DELETE', `/api/prefill_group/${id}`)).body.success).toBe(true);
    expect(await data(root, '/api/prefill_group')).toEqual([]);
    expect((await call(root, 'POST', '/api/prefill_group', { name: 'fast', type: 'model' })).body.success).toBe(true);
    expect(await testApp.context.database.db.selectFrom('prefill_groups').select('name').execute()).toHaveLength(2);
  });

  it('offers and withdraws groups per user group, with ratios, and the auto group', async () => {
    // new-api's default: vip users get `append_1` and lose `remove_1`.
    const groups = await data(member, '/api/user/self/groups');
    expect(groups).toMatchObject({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 1, desc: 'vip分组' },
      append_1: { ratio: 1, desc: 'vip_special_group_1' },
    });
    const options = testApp.context.options;
    await options.set('UserUsableGroups', JSON.stringify({ default: '默认分组', cheap: 'Cheap', auto: 'Auto' }));
    await options.set('GroupRatio', JSON.stringify({ default: 1, cheap: 0.5, vip: 1 }));
    await options.set('GroupGroupRatio', JSON.stringify({ vip: { default: 0.8 } }));
    await options.set('group_ratio_setting.group_special_usable_group', JSON.stringify({ vip: { '-:cheap': '', '+:premium': 'Premium' } }));
    expect(await data(member, '/api/user/self/groups')).toEqual({
      default: { ratio: 0.8, desc: '默认分组' },
      auto: { ratio: '自动', desc: 'Auto' },
      premium: { ratio: 1, desc: 'Premium' },
      vip: { ratio: 1, desc: '用户分组' },
    });
    // The relay and the token form ask the same rule: a withdrawn group is refused, an offered one taken.
    expect((await call(member, 'POST', '/api/token/', { name: 'cheap', group: 'cheap' })).body.success).toBe(false);
    expect((await call(member, 'POST', '/api/token/', { name: 'premium', group: 'premium' })).body.success).toBe(true);
    await options.set('group_ratio_setting.group_special_usable_group', optionDefinitions['group_ratio_setting.group_special_usable_group'].defaultValue);
  });

  it('shares the ratios only when ExposeRatioEnabled is on, and reports no monitors', async () => {
    expect(await call(undefined, 'GET', '/api/ratio_config')).toMatchObject({ status: 403, body: { success: false } });
    await testApp.context.options.set('ExposeRatioEnabled', 'true');
    const shared = await call(undefined, 'GET', '/api/ratio_config');
    expect(shared.body.data).toMatchObject({ model_ratio: expect.any(Object), completion_ratio: expect.any(Object), model_price: expect.any(Object) });
    expect(await call(undefined, 'GET', '/api/uptime/status')).toEqual({ status: 200, body: { success: true, message: '', data: [] } });
  });

  it("starts the chat links with new-api's defaults, Cherry Studio after them", async () => {
    const chats = (await data(undefined, '/api/status')) as { chats: Array<Record<string, string>> };
    const names = chats.chats.map((entry) => Object.keys(entry)[0]);
    expect(names[0]).toBe('ChatGPT Next Web 官方示例');
    expect(chats.chats[0]?.['ChatGPT Next Web 官方示例']).toBe('https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}');
    expect(names.at(-1)).toBe('Cherry Studio');
  });
});
