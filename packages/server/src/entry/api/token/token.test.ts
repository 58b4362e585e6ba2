import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStatus } from '@switchboard/contracts';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

describe.each(testDatabases())('tokens on $dialect', (database) => {
  let testApp: TestApp;
  let owner: TestUser;
  let other: TestUser;
  let published: string[] = [];

  const call = (as: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    testApp.app
      .inject({ method, url, headers: { ...as.headers, 'accept-language': 'en' }, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((response) => response.json());
  const create = async (as: TestUser, fields: Record<string, unknown>) => {
    const body = await call(as, 'POST', '/api/token/', fields);
    expect(body.success, body.message).toBe(true);
    return body.data as Array<{ id: number; key: string; name: string }>;
  };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    owner = await createTestUser(testApp, { group: 'default' });
    other = await createTestUser(testApp);
    testApp.context.bus.subscribe('tokens', (payload) => void published.push(payload));
  });
  afterAll(async () => testApp.close());

  it('creates tokens with 48-character unique keys, defaults and named copies', async () => {
    published = [];
    const tokens = await create(owner, { name: 'ci', count: 3 });
    expect(tokens).toHaveLength(3);
    expect(tokens[0]).toMatchObject({ name: 'ci', remain_quota: 500000, expired_time: -1, unlimited_quota: false, status: 1, group: '' });
    expect(tokens.slice(1).every((token) => /^ci-[0-9A-Za-z]{6}$/.test(token.name))).toBe(true);
    expect(tokens.every((token) => /^[0-9A-Za-z]{48}$/.test(token.key))).toBe(true);
    expect(new Set(tokens.map((token) => token.key)).size).toBe(3);
    expect(published).toEqual(tokens.map((token) => String(token.id)));

    const [limited] = await create(owner, {
      name: 'limited',
      remain_quota: 25000000,
      expired_time: 4102444800,
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: ['gpt-4o', 'o3', 'gpt-4o'],
      allow_ips: ' 10.0.0.1 \n\n192.168.0.0/16',
      group: 'vip',
    });
    expect(limited).toMatchObject({
      remain_quota: 25000000,
      expired_time: 4102444800,
      unlimited_quota: true,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,o3',
      allow_ips: '10.0.0.1\n192.168.0.0/16',
      group: 'vip',
    });
  });

  it('validates the token form', async () => {
    const refused = async (fields: Record<string, unknown>, message: string) =>
      expect(await call(owner, 'POST', '/api/token/', fields)).toEqual({ success: false, message });
    await refused({ name: ' ' }, 'Please enter a token name');
    await refused({ name: 'x'.repeat(51) }, 'The token name is too long');
    await refused({ name: 'a', expired_time: 'tomorrow' }, 'Expiry time format error');
    await refused({ name: 'a', expired_time: -5 }, 'Expiry time format error');
    await refused({ name: 'a', remain_quota: -1 }, 'Quota cannot be negative');
    await refused({ name: 'a', count: 0 }, 'The count must be an integer from 1 to 100');
    await refused({ name: 'a', count: 101 }, 'The count must be an integer from 1 to 100');
    await refused({ name: 'a', group: 'svip' }, 'No access to group svip');
    const [dated] = await create(owner, { name: 'dated', expired_time: '2099-01-02 03:04:05' });
    expect(dated).toHaveProperty('expired_time');
  });

  it('lists, gets and searches only the caller own tokens', async () => {
    const [mine] = await create(owner, { name: 'findme-alpha' });
    const [theirs] = await create(other, { name: 'findme-beta' });
    const list = await call(owner, 'GET', '/api/token/?p=0&size=100');
    expect(list.data.some((token: { id: number }) => token.id === mine?.id)).toBe(true);
    expect(list.data.some((token: { id: number }) => token.id === theirs?.id)).toBe(false);
    const firstPage = await call(owner, 'GET', '/api/token/?p=0&size=2');
    expect(firstPage.data).toHaveLength(2);
    expect(firstPage.data[0].id).toBeGreaterThan(firstPage.data[1].id);

    expect((await call(owner, 'GET', '/api/token/search?keyword=findme')).data.map((token: { id: number }) => token.id)).toEqual([mine?.id]);
    expect((await call(owner, 'GET', `/api/token/search?token=sk-${mine?.key.slice(0, 20)}`)).data.map((token: { id: number }) => token.id)).toEqual([
      mine?.id,
    ]);
    expect((await call(owner, 'GET', `/api/token/${mine?.id}`)).data.key).toBe(mine?.key);
    expect(await call(owner, 'GET', `/api/token/${theirs?.id}`)).toEqual({ success: false, message: 'Token not found' });
    expect(await call(owner, 'PUT', '/api/token/', { id: theirs?.id, name: 'stolen' })).toEqual({ success: false, message: 'Token not found' });
    expect(await call(owner, 'DELETE', `/api/token/${theirs?.id}/`)).toEqual({ success: false, message: 'Token not found' });
  });

  it('updates fields and refuses to enable an expired or exhausted token until fixed', async () => {
    const [token] = await create(owner, { name: 'edit-me' });
    const id = token?.id ?? 0;
    const updated = await call(owner, 'PUT', '/api/token/', { id, name: 'edited', remain_quota: 10, model_limits: 'a,b', status: 2 });
    expect(updated.data).toMatchObject({ name: 'edited', remain_quota: 10, model_limits: 'a,b', status: 1 });
    expect((await call(owner, 'PUT', '/api/token/?status_only=true', { id, status: 2 })).data.status).toBe(2);
    expect(await call(owner, 'PUT', '/api/token/?status_only=true', { id, status: 3 })).toEqual({ success: false, message: 'Invalid token status' });

    const db = testApp.context.database.db;
    await db.updateTable('tokens').set({ status: TokenStatus.expired, expired_time: 1000 }).where('id', '=', id).execute();
    expect((await call(owner, 'PUT', '/api/token/?status_only=true', { id, status: 1 })).message).toBe(
      'This token has expired and cannot be enabled: change its expiry time or make it never expire first',
    );
    expect((await call(owner, 'PUT', '/api/token/', { id, name: 'still-expired' })).data.status).toBe(TokenStatus.expired);
    expect((await call(owner, 'PUT', '/api/token/', { id, expired_time: -1 })).data.status).toBe(TokenStatus.enabled);

    await db.updateTable('tokens').set({ status: TokenStatus.exhausted, remain_quota: 0 }).where('id', '=', id).execute();
    expect((await call(owner, 'PUT', '/api/token/?status_only=true', { id, status: 1 })).message).toBe(
      "This token's quota is depleted and it cannot be enabled: change its remaining quota or make it unlimited first",
    );
    expect((await call(owner, 'PUT', '/api/token/', { id, unlimited_quota: true })).data.status).toBe(TokenStatus.enabled);
    await db.updateTable('tokens').set({ status: TokenStatus.disabled }).where('id', '=', id).execute();
    expect((await call(owner, 'PUT', '/api/token/?status_only=true', { id, status: 1 })).data.status).toBe(TokenStatus.enabled);
  });

  it('deletes a token so it disappears everywhere', async () => {
    const [token] = await create(owner, { name: 'to-delete' });
    published = [];
    expect(await call(owner, 'DELETE', `/api/token/${token?.id}/`)).toEqual({ success: true, message: '' });
    expect(published).toEqual([String(token?.id)]);
    expect((await call(owner, 'GET', `/api/token/${token?.id}`)).success).toBe(false);
    expect((await call(owner, 'DELETE', `/api/token/${token?.id}`)).success).toBe(false);
    const anonymous = await testApp.app.inject({ method: 'GET', url: '/api/token/' });
    expect(anonymous.statusCode).toBe(401);
  });
});
