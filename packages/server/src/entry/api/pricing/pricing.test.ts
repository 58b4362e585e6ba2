import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

describe.each(testDatabases())('pricing on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  const addChannel = (fields: Record<string, unknown>) =>
    testApp.app.inject({ method: 'POST', url: '/api/channel/', headers: root.headers, payload: { type: 1, name: 'c', key: 'k', ...fields } });

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    const options = testApp.context.options;
    await options.set('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'claude-3-7-sonnet-20250219': 1.5 }));
    await options.set('CompletionRatio', JSON.stringify({ 'gpt-4o': 4 }));
    await options.set('ModelPrice', JSON.stringify({ 'dall-e-3': 0.04 }));
    await options.set('GroupRatio', JSON.stringify({ default: 1, vip: 0.8, internal: 0.1 }));
    await options.set('UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    await addChannel({ models: 'gpt-4o,dall-e-3,unpriced-model', group: 'default,vip' });
    await addChannel({ models: 'claude-3-7-sonnet-20250219', group: 'vip' });
    await addChannel({ models: 'gpt-4.1', group: 'default', status: 2 });
  });
  afterAll(async () => testApp.close());

  it('lists every priced model served by an enabled channel, publicly', async () => {
    const body = (await testApp.app.inject({ method: 'GET', url: '/api/pricing' })).json();
    expect(body.success).toBe(true);
    expect(body.data).toEqual([
      {
        model_name: 'claude-3-7-sonnet-20250219',
        quota_type: 0,
        model_ratio: 1.5,
        model_price: 0,
        completion_ratio: 5,
        owner_by: '',
        enable_groups: ['vip'],
        supported_endpoint_types: ['openai'],
      },
      {
        model_name: 'dall-e-3',
        quota_type: 1,
        model_ratio: 0,
        model_price: 0.04,
        completion_ratio: 1,
        owner_by: '',
        enable_groups: ['default', 'vip'],
        supported_endpoint_types: ['image-generation'],
      },
      {
        model_name: 'gpt-4o',
        quota_type: 0,
        model_ratio: 1.25,
        model_price: 0,
        completion_ratio: 4,
        owner_by: '',
        enable_groups: ['default', 'vip'],
        supported_endpoint_types: ['openai'],
      },
    ]);
    // No catalogue yet: no vendors, and the paths of the endpoint types listed.
    expect(body.vendors).toEqual([]);
    expect(body.supported_endpoint).toEqual({
      openai: { path: '/v1/chat/completions', method: 'POST' },
      'image-generation': { path: '/v1/images/generations', method: 'POST' },
    });
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.8 });
    expect(body.usable_group).toEqual({ default: '默认分组', vip: 'vip分组' });
  });

  it('adds the caller own group and, in self-use mode, unpriced models', async () => {
    const insider: TestUser = await createTestUser(testApp, { group: 'internal' });
    const body = (await testApp.app.inject({ method: 'GET', url: '/api/pricing', headers: insider.headers })).json();
    expect(body.usable_group).toEqual({ default: '默认分组', vip: 'vip分组', internal: '用户分组' });
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.8, internal: 0.1 });
    await testApp.context.options.set('SelfUseModeEnabled', 'true');
    const selfUse = (await testApp.app.inject({ method: 'GET', url: '/api/pricing' })).json();
    expect(selfUse.data.find((entry: { model_name: string }) => entry.model_name === 'unpriced-model')).toMatchObject({ quota_type: 0, model_ratio: 37.5 });
    await testApp.context.options.set('SelfUseModeEnabled', 'false');
  });

  it('tells administrators which models callers would be refused for lack of a price', async () => {
    const unpriced = async (query = '', headers = root.headers) =>
      (await testApp.app.inject({ method: 'GET', url: `/api/pricing/unpriced${query}`, headers })).json();
    // Every model a channel lists, the disabled channel's too.
    expect(await unpriced()).toEqual({ success: true, message: '', data: { self_use_mode: false, models: ['gpt-4.1', 'unpriced-model'] } });
    // The models named (the channel drawer asks about the list being edited), each once.
    expect((await unpriced('?models=gpt-4o, house-7b,dall-e-3,house-7b,')).data).toEqual({ self_use_mode: false, models: ['house-7b'] });
    await testApp.context.options.set('SelfUseModeEnabled', 'true');
    expect((await unpriced()).data).toEqual({ self_use_mode: true, models: [] });
    await testApp.context.options.set('SelfUseModeEnabled', 'false');

    const user = await createTestUser(testApp);
    const refused = await testApp.app.inject({ method: 'GET', url: '/api/pricing/unpriced', headers: user.headers });
    expect(refused.json().success).toBe(false);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/pricing/unpriced' })).json().success).toBe(false);
  });

  it('lists group names for administrators', async () => {
    const body = (await testApp.app.inject({ method: 'GET', url: '/api/group/', headers: root.headers })).json();
    expect(body.data).toEqual(['default', 'vip', 'internal']);
  });
});
