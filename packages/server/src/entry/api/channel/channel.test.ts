import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LogType, Role } from '@switchboard/contracts';
import { toBoolean } from '../../../core/db/dialect.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startLocalServer } from '../../../testing/local-http-server.ts';

const english = { 'accept-language': 'en' };
const channelBody = (fields: Record<string, unknown> = {}) => ({
  type: 1,
  name: 'main',
  key: 'sk-upstream-1',
  models: 'gpt-4o,gpt-4o-mini',
  group: 'default,vip',
  ...fields,
});

describe.each(testDatabases())('channels on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let headers: Record<string, string>;
  let published: string[];

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    testApp.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });
  const create = async (fields: Record<string, unknown> = {}) => {
    const response = await call('POST', '/api/channel/', channelBody(fields));
    expect(response.json()).toMatchObject({ success: true });
    return response.json().data as number[];
  };
  const abilitiesOf = (id: number) =>
    testApp.context.database.db.selectFrom('abilities').selectAll().where('channel_id', '=', id).orderBy('group').orderBy('model').execute();

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    headers = { ...root.headers, ...english };
    testApp.context.bus.subscribe('channels', (payload) => void published.push(payload));
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    published = [];
    await testApp.context.database.db.deleteFrom('abilities').execute();
    await testApp.context.database.db.deleteFrom('channels').execute();
  });

  it('creates a channel with its abilities and hides the key in lists, searches and the single channel', async () => {
    const [id] = await create({ base_url: 'https://up.example.com/v1//', priority: 5, weight: 3, tag: 'team' });
    expect(published).toEqual([String(id)]);
    const abilities = await abilitiesOf(id ?? 0);
    expect(abilities.map((row) => `${row.group}/${row.model}`)).toEqual(['default/gpt-4o', 'default/gpt-4o-mini', 'vip/gpt-4o', 'vip/gpt-4o-mini']);
    expect(abilities.every((row) => toBoolean(row.enabled) && Number(row.priority) === 5 && Number(row.weight) === 3 && row.tag === 'team')).toBe(true);

    const list = (await call('GET', '/api/channel/?p=0&page_size=10')).json();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).not.toHaveProperty('key');
    expect(list.data[0]).toMatchObject({ id, name: 'main', base_url: 'https://up.example.com/v1', openai_organization: '', group: 'default,vip', status: 1 });
    const one = (await call('GET', `/api/channel/${id}`)).json();
    expect(one.data).toMatchObject({ id, name: 'main' });
    expect(one.data).not.toHaveProperty('key');
    expect(JSON.stringify(one)).not.toContain('sk-upstream-1');
    const search = (await call('GET', '/api/channel/search?keyword=sk-upstream-1')).json();
    expect(search.data[0]).not.toHaveProperty('key');

    const audit = await testApp.context.logDatabase.db.selectFrom('logs').selectAll().where('type', '=', LogType.manage).execute();
    expect(audit.some((row) => row.user_id === root.id && (row.content ?? '').includes(String(id)))).toBe(true);
    expect(audit.every((row) => !(row.content ?? '').includes('sk-upstream-1'))).toBe(true);
  });

  it('creates one channel per key line, and one channel for a JSON credential', async () => {
    const ids = await create({ key: 'k1\nk2\n\nk3\nk1' });
    expect(ids).toHaveLength(3);
    expect(published).toEqual(['*']);
    const keys = await testApp.context.database.db.selectFrom('channels').select('key').orderBy('id').execute();
    expect(keys.map((row) => row.key)).toEqual(['k1', 'k2', 'k3']);
    const single = (await call('POST', '/api/channel/', { mode: 'single', channel: channelBody({ key: 'a\nb' }) })).json();
    expect(single.data).toHaveLength(1);
    const vertex = await create({ type: 41, key: '{\n "type": "service_account",\n "project_id": "p",\n "private_key": "pk",\n "client_email": "a@p"\n}' });
    expect(vertex).toHaveLength(1);
  });

  it('applies the spec validations and defaults on create', async () => {
    const refused = async (fields: Record<string, unknown>, message: string) => {
      const body = (await call('POST', '/api/channel/', channelBody(fields))).json();
      expect(body).toEqual({ success: false, message });
    };
    await refused({ key: '  ' }, 'Please fill in the channel key');
    await refused({ name: '' }, 'Please fill in the channel name');
    await refused({ models: ' , ' }, 'Please select at least one model');
    await refused({ model_mapping: '{oops' }, 'Model mapping must be valid JSON');
    await refused({ model_mapping: '[1]' }, 'Model mapping must be valid JSON');
    await refused({ status_code_mapping: 'x' }, 'Status code mapping must be valid JSON');
    await refused({ param_override: '{"temperature":' }, 'param_override must be a valid JSON object');
    // JSON the relay could not apply: refused here rather than ignored on every request.
    await refused(
      { param_override: '{"operations":[{"path":"a","mode":"explode"}]}' },
      'param_override operations contain an unsupported mode, a regular expression that does not compile or an invalid header',
    );
    await refused({ header_override: '{"bad name":"x"}' }, 'Each header_override key must be a valid header name, and each value text without line breaks');
    await refused({ models: 'a,b,a' }, 'Some models already exist: a');
    await refused({ priority: -1000 }, 'Priority cannot be less than -999');
    await refused({ weight: -1 }, 'Weight must be a non-negative integer');
    // Type and groups are required too (as in new-api's channel form): nothing is filled in for the caller.
    await refused({ type: undefined }, 'Channel type is required');
    await refused({ type: 0 }, 'Invalid channel type');
    await refused({ group: '' }, 'At least one group is required');
    await refused({ group: ' , ' }, 'At least one group is required');
    const { group: _group, ...withoutGroup } = channelBody({ key: 'k1\nk2' });
    expect((await call('POST', '/api/channel/', { mode: 'batch', channel: withoutGroup })).json()).toEqual({
      success: false,
      message: 'At least one group is required',
    });
    expect(
      (await testApp.app.inject({ method: 'POST', url: '/api/channel/', headers: root.headers, payload: channelBody({ group: undefined }) })).json(),
    ).toEqual({ success: false, message: '请至少选择一个分组' });
    expect(await testApp.context.database.db.selectFrom('channels').select('id').execute()).toEqual([]);
    expect(await testApp.context.database.db.selectFrom('abilities').select('channel_id').execute()).toEqual([]);
    expect(published).toEqual([]);

    const [azure] = await create({ type: 3, other: '' });
    const [iflytek] = await create({ type: 18, key: 'appid|api-secret|api-key' });
    const [kept] = await create({ type: 3, other: '2024-10-21', priority: -999, model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}' });
    const other = async (id?: number) => (await call('GET', `/api/channel/${id}`)).json().data.other;
    expect(await other(azure)).toBe('2023-06-01-preview');
    expect(await other(iflytek)).toBe('v2.1');
    expect(await other(kept)).toBe('2024-10-21');
  });

  it("accepts new-api's header-passing, prune_objects, array_remove, sync_fields and wildcard operations, and refuses one missing what it needs", async () => {
    const operations = [
      { mode: 'copy_header', from: 'Authorization', to: 'X-Upstream-Auth' },
      { mode: 'move_header', from: 'x-a', to: 'x-b' },
      { mode: 'pass_headers', value: ['session_id', 'X-Codex-Beta-Features'] },
      { mode: 'prune_objects', path: 'messages', value: { where: { type: 'redacted_thinking' } } },
      { mode: 'delete', path: 'tools.*.custom.input_examples' },
      { mode: 'array_remove', path: 'tools', match: { path: 'type', eq: 'web_search' } },
      { mode: 'sync_fields', from: 'header:session_id', to: 'json:prompt_cache_key' },
    ];
    const [id] = await create({ param_override: JSON.stringify({ operations }) });
    expect(JSON.parse((await call('GET', `/api/channel/${id}`)).json().data.param_override)).toEqual({ operations });
    const refusedOperations = [
      { mode: 'pass_headers' },
      { mode: 'copy_header', from: 'x-a' },
      { mode: 'prune_objects', value: {} },
      { mode: 'array_remove', path: 'tools', match: { path: 'type' } },
      { mode: 'sync_fields', from: 'cookie:session', to: 'json:prompt_cache_key' },
    ];
    for (const refused of refusedOperations) {
      const body = (
        await call('POST', '/api/channel/', channelBody({ models: 'other-model', param_override: JSON.stringify({ operations: [refused] }) }))
      ).json();
      expect(body).toEqual({
        success: false,
        message: 'param_override operations contain an unsupported mode, a regular expression that does not compile or an invalid header',
      });
    }
  });

  it("refuses a key that is not in the type's native format, on create and on edit, and changes nothing", async () => {
    const refused = async (method: 'POST' | 'PUT', body: Record<string, unknown>, message: string) =>
      expect((await call(method, '/api/channel/', body)).json()).toEqual({ success: false, message });
    await refused('POST', channelBody({ type: 15, key: 'sk-plain' }), 'A 百度文心千帆 / Baidu channel key must be written as APIKey|SecretKey; key 1 is not');
    await refused(
      'POST',
      { mode: 'batch', channel: channelBody({ type: 18, key: 'a|b|c\na|b' }) },
      'A 讯飞星火认知 / iFlytek channel key must be written as APPID|APISecret|APIKey; key 2 is not',
    );
    await refused('POST', channelBody({ type: 16, key: 'no-dot' }), 'A 智谱 ChatGLM / Zhipu channel key must be written as id.secret; key 1 is not');
    const vertex = (await call('POST', '/api/channel/', channelBody({ type: 41, key: '{"project_id": "p"}' }))).json();
    expect(vertex.message).toMatch(/^A Vertex AI channel key must be written as \{ "type": "service_account", .*; key 1 is not$/);
    const chinese = await testApp.app.inject({ method: 'POST', url: '/api/channel/', headers: root.headers, payload: channelBody({ type: 23, key: 'a|b' }) });
    expect(chinese.json()).toEqual({ success: false, message: '腾讯混元 / Tencent 渠道的密钥格式应为 AppId|SecretId|SecretKey，第 1 个密钥不符合' });
    expect(await testApp.context.database.db.selectFrom('channels').select('id').execute()).toEqual([]);

    const [baidu] = await create({ type: 15, key: 'api-key|secret-key' });
    const [aws] = await create({ type: 33, key: 'AKIA|secret|session|us-east-1' });
    await refused('PUT', { id: baidu, key: 'api-key-only' }, 'A 百度文心千帆 / Baidu channel key must be written as APIKey|SecretKey; key 1 is not');
    // A type change is checked against the stored key, which an OpenAI channel's plain key would fail.
    const [openai] = await create();
    await refused('PUT', { id: openai, type: 23 }, 'A 腾讯混元 / Tencent channel key must be written as AppId|SecretId|SecretKey; key 1 is not');
    const stored = await testApp.context.database.db.selectFrom('channels').select(['id', 'type', 'key']).orderBy('id').execute();
    expect(stored).toEqual([
      { id: baidu, type: 15, key: 'api-key|secret-key' },
      { id: aws, type: 33, key: 'AKIA|secret|session|us-east-1' },
      { id: openai, type: 1, key: 'sk-upstream-1' },
    ]);
    // Edits that leave key and type alone go through, so an imported channel can still be switched off.
    expect((await call('PUT', '/api/channel/', { id: baidu, status: 2 })).json()).toMatchObject({ success: true, message: '', data: { id: baidu, status: 2 } });
    expect((await call('PUT', '/api/channel/', { id: baidu, key: 'other-key|other-secret' })).json()).toMatchObject({ success: true, message: '' });
  });

  it('updates fully or per row, keeps the key when none is sent and rebuilds abilities', async () => {
    const [id] = await create();
    const full = await call('PUT', '/api/channel/', { ...channelBody({ key: '', models: 'claude-3-7-sonnet-20250219', group: 'svip', name: 'renamed' }), id });
    // new-api's consoles update the row from the answer: the saved channel, without its key.
    expect(full.json()).toMatchObject({ success: true, message: '', data: { id, name: 'renamed', group: 'svip', models: 'claude-3-7-sonnet-20250219' } });
    expect(full.json().data).not.toHaveProperty('key');
    const stored = await testApp.context.database.db
      .selectFrom('channels')
      .selectAll()
      .where('id', '=', id ?? 0)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ key: 'sk-upstream-1', name: 'renamed', group: 'svip' });
    expect((await abilitiesOf(id ?? 0)).map((row) => `${row.group}/${row.model}`)).toEqual(['svip/claude-3-7-sonnet-20250219']);

    expect((await call('PUT', '/api/channel/', { id, status: 2 })).json().success).toBe(true);
    expect((await abilitiesOf(id ?? 0)).every((row) => !toBoolean(row.enabled))).toBe(true);
    expect((await call('PUT', '/api/channel/', { id, weight: -5 })).json().success).toBe(true);
    expect((await call('PUT', '/api/channel/', { id, priority: 0 })).json().success).toBe(true);
    const row = await testApp.context.database.db
      .selectFrom('channels')
      .select(['weight', 'priority', 'status'])
      .where('id', '=', id ?? 0)
      .executeTakeFirstOrThrow();
    expect({ weight: Number(row.weight), priority: Number(row.priority), status: row.status }).toEqual({ weight: 0, priority: 0, status: 2 });

    expect((await call('PUT', '/api/channel/', { id, priority: -1000 })).json()).toEqual({ success: false, message: 'Priority cannot be less than -999' });
    expect((await call('PUT', '/api/channel/', { id, status: 7 })).json()).toEqual({ success: false, message: 'Invalid channel status' });
    expect((await call('PUT', '/api/channel/', { id, models: '' })).json()).toEqual({ success: false, message: 'Please select at least one model' });
    expect((await call('PUT', '/api/channel/', { id, group: ' ' })).json()).toEqual({ success: false, message: 'At least one group is required' });
    expect(
      (
        await testApp.context.database.db
          .selectFrom('channels')
          .select('group')
          .where('id', '=', id ?? 0)
          .executeTakeFirstOrThrow()
      ).group,
    ).toBe('svip');
    expect((await call('PUT', '/api/channel/', { id: 999999, status: 1 })).json()).toEqual({ success: false, message: 'Channel not found, refresh and retry' });
    expect((await call('PUT', '/api/channel/', { status: 1 })).statusCode).toBe(400);
    expect(published.length).toBeGreaterThanOrEqual(4);
  });

  it('pages, sorts by id and aggregates tags', async () => {
    const [low] = await create({ priority: 1 });
    const [high] = await create({ priority: 9 });
    const [tagA1] = await create({ tag: 'A', priority: 0 });
    const [tagA2] = await create({ tag: 'A', priority: 0 });
    const ids = (url: string) => call('GET', url).then((response) => response.json().data.map((channel: { id: number }) => channel.id));
    expect(await ids('/api/channel/?p=0&page_size=2')).toEqual([high, low]);
    expect(await ids('/api/channel/?p=1&page_size=2&id_sort=true')).toEqual([high, low]);
    expect(await ids('/api/channel/?p=0&page_size=1&id_sort=true&tag_mode=true')).toEqual([tagA2, tagA1]);
    expect(await ids('/api/channel/?p=1&page_size=2&id_sort=true&tag_mode=true')).toEqual([low]);
  });

  it('searches by keyword (id, name, exact key), whole group name and model', async () => {
    const [first] = await create({ name: 'alpha 100%', group: 'svip', key: 'secret-one' });
    const [second] = await create({ name: 'beta', group: 'vip', models: 'deepseek-chat', key: 'secret-two' });
    const ids = (query: string) =>
      call('GET', `/api/channel/search?${query}`).then((response) => response.json().data.map((channel: { id: number }) => channel.id));
    expect(await ids(`keyword=${second}`)).toEqual([second]);
    expect(await ids('keyword=100%25')).toEqual([first]);
    expect(await ids('keyword=secret-two')).toEqual([second]);
    expect(await ids('keyword=secret')).toEqual([]);
    expect(await ids('group=vip')).toEqual([second]);
    expect(await ids('model=deepseek&keyword=%20')).toEqual([second]);
  });

  it('deletes one, a selection and every disabled channel', async () => {
    const [one, two, three, four] = [...(await create()), ...(await create()), ...(await create({ status: 2 })), ...(await create())];
    await call('PUT', '/api/channel/', { id: four, status: 3 });
    expect((await call('DELETE', `/api/channel/${one}/`)).json()).toEqual({ success: true, message: '' });
    expect(await abilitiesOf(one ?? 0)).toEqual([]);
    expect((await call('DELETE', `/api/channel/${one}`)).json().success).toBe(false);
    expect((await call('DELETE', '/api/channel/disabled')).json()).toEqual({ success: true, message: '', data: 2 });
    expect((await call('POST', '/api/channel/batch', { ids: [] })).json()).toEqual({ success: false, message: 'Please select channels to delete first' });
    expect((await call('POST', '/api/channel/batch', { ids: [two, 424242] })).json().data).toBe(1);
    expect(await testApp.context.database.db.selectFrom('channels').select('id').execute()).toEqual([]);
    expect(three).toBeDefined();
  });

  it('tags a selection, edits, enables and disables by tag', async () => {
    const [one, two] = [...(await create()), ...(await create())];
    expect((await call('POST', '/api/channel/batch/tag', { ids: [], tag: 'x' })).json().message).toBe('Please select channels to tag first');
    expect((await call('POST', '/api/channel/batch/tag', { ids: [one], tag: ' ' })).json().message).toBe('Tag cannot be empty');
    expect((await call('POST', '/api/channel/batch/tag', { ids: [one, two], tag: 'blue' })).json().data).toBe(2);

    const edit = (body: Record<string, unknown>) => call('PUT', '/api/channel/tag', { tag: 'blue', ...body }).then((response) => response.json());
    expect(await edit({})).toEqual({ success: false, message: 'No changes' });
    expect(await edit({ new_tag: null, models: '', groups: '' })).toEqual({ success: false, message: 'No changes' });
    expect(await edit({ priority: 1.5 })).toEqual({ success: false, message: 'Priority must be an integer' });
    expect(await edit({ weight: -2 })).toEqual({ success: false, message: 'Weight must be a non-negative integer' });
    expect(await edit({ model_mapping: 'nope' })).toEqual({ success: false, message: 'Model mapping must be valid JSON' });
    expect(await edit({ tag: 'missing', priority: 1 })).toEqual({ success: false, message: 'Channel not found, refresh and retry' });
    expect(await edit({ models: 'm1,m2', groups: 'g1', priority: 7, weight: 4 })).toMatchObject({ success: true, data: 2 });
    const abilities = await abilitiesOf(two ?? 0);
    expect(abilities.map((row) => `${row.group}/${row.model}/${row.priority}/${row.weight}`)).toEqual(['g1/m1/7/4', 'g1/m2/7/4']);

    expect((await call('POST', '/api/channel/tag/disabled', { tag: 'blue' })).json().data).toBe(2);
    expect((await abilitiesOf(one ?? 0)).every((row) => !toBoolean(row.enabled))).toBe(true);
    expect((await call('POST', '/api/channel/tag/enabled', { tag: 'blue' })).json().data).toBe(2);
    expect((await abilitiesOf(one ?? 0)).every((row) => toBoolean(row.enabled))).toBe(true);
    expect((await call('POST', '/api/channel/tag/enabled', {})).json().message).toBe('Tag cannot be empty');

    // A non-empty new tag renames the tag on every channel and on their abilities.
    expect(await edit({ new_tag: ' green ' })).toMatchObject({ success: true, data: 2 });
    const renamed = await testApp.context.database.db.selectFrom('channels').select('tag').orderBy('id').execute();
    expect(renamed.map((row) => row.tag)).toEqual(['green', 'green']);
    expect((await abilitiesOf(one ?? 0)).every((row) => row.tag === 'green')).toBe(true);
    expect(await edit({ priority: 1 })).toEqual({ success: false, message: 'Channel not found, refresh and retry' });

    expect(await edit({ tag: 'green', new_tag: '' })).toMatchObject({ success: true, data: 2 });
    const tags = await testApp.context.database.db.selectFrom('channels').select('tag').execute();
    expect(tags.every((row) => row.tag === null)).toBe(true);
  });

  it('copies a channel with its key and abilities, resetting its balance and usage', async () => {
    const [id] = await create({ tag: 'copied' });
    await testApp.context.database.db
      .updateTable('channels')
      .set({ balance: 9, used_quota: 77 })
      .where('id', '=', id ?? 0)
      .execute();
    const copy = (await call('POST', `/api/channel/copy/${id}?suffix=-copy`)).json();
    expect(copy.success).toBe(true);
    const stored = await testApp.context.database.db.selectFrom('channels').selectAll().where('id', '=', copy.data.id).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ name: 'main-copy', key: 'sk-upstream-1', tag: 'copied', used_quota: 0 });
    expect(Number(stored.balance)).toBe(0);
    expect(await abilitiesOf(copy.data.id)).toHaveLength(4);
    expect((await call('POST', '/api/channel/copy/999999')).json()).toEqual({ success: false, message: 'Channel not found, refresh and retry' });
  });

  it('reveals a key only to the super administrator, through its own logged action', async () => {
    const [id] = await create({ key: 'sk-reveal-me' });
    const revealed = (await call('POST', `/api/channel/${id}/key`)).json();
    expect(revealed).toEqual({ success: true, message: '', data: { key: 'sk-reveal-me' } });
    const logs = await testApp.context.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('type', '=', LogType.manage)
      .where('user_id', '=', root.id)
      .execute();
    const entry = logs.find((row) => (row.content ?? '').includes(`#${id}`) && (row.content ?? '').includes('密钥'));
    expect(entry).toMatchObject({ username: root.username });
    expect(entry?.content).not.toContain('sk-reveal-me');

    const admin = await createTestUser(testApp, { role: Role.admin });
    const refused = await testApp.app.inject({ method: 'POST', url: `/api/channel/${id}/key`, headers: { ...admin.headers, ...english } });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain('sk-reveal-me');
    expect((await call('POST', '/api/channel/999999/key')).json()).toEqual({ success: false, message: 'Channel not found, refresh and retry' });
  });

  it('repairs the abilities of every channel', async () => {
    const [id] = await create();
    await testApp.context.database.db.deleteFrom('abilities').execute();
    await testApp.context.database.db
      .insertInto('abilities')
      .values({ group: 'ghost', model: 'ghost', channel_id: 999, enabled: 1, priority: 0, weight: 0, tag: null })
      .execute();
    expect((await call('POST', '/api/channel/fix')).json().data).toBe(1);
    expect(await abilitiesOf(id ?? 0)).toHaveLength(4);
    expect(await abilitiesOf(999)).toEqual([]);
  });

  it('refreshes balances from providers that expose one and fetches model lists', async () => {
    const upstream = await startLocalServer({
      'GET /user/balance': () => ({ json: { is_available: true, balance_infos: [{ currency: 'USD', total_balance: '12.50' }] } }),
      'GET /v1/dashboard/billing/subscription': () => ({ json: { hard_limit_usd: 20 } }),
      'GET /v1/dashboard/billing/usage': () => ({ json: { total_usage: 550 } }),
      'GET /client/v4/accounts/acc-7/ai/models/search': () => ({ json: { success: true, result: [{ name: '@cf/meta/llama-3.1-8b-instruct' }] } }),
      'GET /v1/models': (request) =>
        request.headers.authorization === 'Bearer good' ? { json: { object: 'list', data: [{ id: 'gpt-4o' }, { id: 'o3' }] } } : { status: 401, json: {} },
    });
    try {
      const [deepseek] = await create({ type: 43, base_url: upstream.url });
      const [openai] = await create({ type: 1, base_url: upstream.url, key: 'good' });
      const [unsupported] = await create({ type: 14, base_url: upstream.url });
      await call('PUT', '/api/channel/', { id: unsupported, status: 2 });
      const one = (await call('GET', `/api/channel/update_balance/${deepseek}/`)).json();
      expect(one).toMatchObject({ success: true, balance: 12.5, data: 12.5 });
      expect((await call('GET', `/api/channel/update_balance/${unsupported}`)).json()).toEqual({
        success: false,
        message: 'Balance query is not supported for this channel type',
      });
      expect((await call('GET', '/api/channel/update_balance')).json().data).toEqual({ updated: 2, failed: 0 });
      expect((await call('GET', `/api/channel/${openai}`)).json().data.balance).toBe(14.5);

      expect((await call('GET', `/api/channel/fetch_models/${openai}`)).json().data).toEqual(['gpt-4o', 'o3']);
      expect((await call('POST', '/api/channel/fetch_models', { base_url: upstream.url, type: 1, key: 'good' })).json().data).toEqual(['gpt-4o', 'o3']);
      expect((await call('POST', '/api/channel/fetch_models', { base_url: upstream.url, type: 1, key: 'bad' })).json()).toEqual({
        success: false,
        message: 'Failed to fetch the model list: HTTP 401',
      });
      expect((await call('POST', '/api/channel/fetch_models', { base_url: upstream.url, type: 1, key: '' })).json().message).toBe(
        'Please fill in the key first',
      );
      // The unsaved form's extra field reaches the provider: Cloudflare lists the account it names.
      const cloudflare = await call('POST', '/api/channel/fetch_models', { base_url: upstream.url, type: 39, key: 'good', other: 'acc-7' });
      expect(cloudflare.json().data).toEqual(['@cf/meta/llama-3.1-8b-instruct']);
      const [spark] = await create({ type: 18, key: 'appid|api-secret|api-key' });
      expect((await call('GET', `/api/channel/fetch_models/${spark}`)).json()).toEqual({
        success: false,
        message: '讯飞星火认知 / iFlytek offers no model list; enter the models by hand or use "fill related models"',
      });
      const sparkChinese = await testApp.app.inject({ method: 'GET', url: `/api/channel/fetch_models/${spark}`, headers: root.headers });
      expect(sparkChinese.json().message).toBe('讯飞星火认知 / iFlytek 不提供模型列表接口，请手动填写模型或使用“填入相关模型”');
      expect((await call('POST', '/api/channel/fetch_models', { type: 11, key: 'palm-key' })).json()).toEqual({
        success: false,
        message:
          'This channel type cannot be used: Google PaLM2: Google has shut down the PaLM API; serve these models from a Gemini channel (type 24) instead',
      });
      expect(upstream.requests.every((request) => !request.url.includes('good'))).toBe(true);
    } finally {
      await upstream.close();
    }
  });

  it('serves the model catalogues and refuses non-administrators', async () => {
    const user = await createTestUser(testApp, { role: Role.common });
    const models = (await testApp.app.inject({ method: 'GET', url: '/api/models', headers: user.headers })).json();
    expect(models.data['2']).toContain('mj_imagine');
    expect(models.data['36']).toEqual(['suno_music', 'suno_lyrics']);
    const known = (await call('GET', '/api/channel/models')).json();
    expect(known.data.some((model: { id: string }) => model.id === 'gpt-4o')).toBe(true);
    for (const [method, url] of [
      ['GET', '/api/channel/'],
      ['POST', '/api/channel/fix'],
      ['GET', '/api/channel/1'],
    ] as const) {
      expect((await testApp.app.inject({ method, url, headers: user.headers })).statusCode).toBe(403);
    }
  });
});
