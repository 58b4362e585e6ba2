import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedemptionStatus, Role } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

describe.each(testDatabases())('redemption codes on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, as: TestUser = root) =>
    testApp.app
      .inject({ method, url, headers: { ...as.headers, 'accept-language': 'en' }, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((response) => response.json());
  const idOf = async (key: string) =>
    (await testApp.context.database.db.selectFrom('redemptions').select('id').where('key', '=', key).executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => testApp.close());

  it('creates a batch of 32-hex codes and answers them', async () => {
    const created = await call('POST', '/api/redemption/', { name: 'launch', quota: 250000, count: 3 });
    expect(created.success).toBe(true);
    expect(created.data).toHaveLength(3);
    expect(created.data.every((key: string) => /^[0-9a-f]{32}$/.test(key))).toBe(true);
    const row = (await call('GET', `/api/redemption/${await idOf(created.data[0])}`)).data;
    expect(row).toMatchObject({ name: 'launch', quota: 250000, status: 1, used_user_id: 0, user_id: root.id, key: created.data[0] });
  });

  it('names an unnamed code after its quota in display form and applies the default quota', async () => {
    const [key] = (await call('POST', '/api/redemption/', { name: '', quota: 100000 })).data;
    expect((await call('GET', `/api/redemption/${await idOf(key)}`)).data.name).toBe('$0.20');
    const [defaulted] = (await call('POST', '/api/redemption/', { name: 'plain' })).data;
    expect((await call('GET', `/api/redemption/${await idOf(defaulted)}`)).data.quota).toBe(100000);
  });

  it('validates name, count and quota', async () => {
    const refused = async (body: Record<string, unknown>, message: string) =>
      expect(await call('POST', '/api/redemption/', body)).toEqual({ success: false, message });
    await refused({ name: 'x'.repeat(21), quota: 1 }, 'The name must be 1 to 20 characters long');
    await refused({ name: 'ok', quota: 1, count: 0 }, 'The count must be greater than 0 and at most 100 per batch');
    await refused({ name: 'ok', quota: 1, count: 101 }, 'The count must be greater than 0 and at most 100 per batch');
    await refused({ name: 'ok', quota: 0 }, 'The quota must be a positive integer');
    await refused({ name: 'ok', quota: -5 }, 'The quota must be a positive integer');
    expect((await call('POST', '/api/redemption/', { name: 'ok', quota: 1, count: 100 })).data).toHaveLength(100);
  });

  it('lists newest first from page 0 and searches by id or name', async () => {
    const [key] = (await call('POST', '/api/redemption/', { name: 'needle', quota: 7 })).data;
    const id = await idOf(key);
    const page = await call('GET', '/api/redemption/?p=0&page_size=5');
    expect(page.data).toHaveLength(5);
    expect(page.data[0].id).toBe(id);
    expect((await call('GET', '/api/redemption/?p=1&page_size=5')).data[0].id).toBeLessThan(page.data[4].id);
    expect((await call('GET', `/api/redemption/search?keyword=${id}`)).data.map((row: { id: number }) => row.id)).toEqual([id]);
    expect((await call('GET', '/api/redemption/search?keyword=need')).data.map((row: { id: number }) => row.id)).toEqual([id]);
  });

  it('edits and toggles unused codes only, and deletes', async () => {
    const [key, usedKey] = (await call('POST', '/api/redemption/', { name: 'editable', quota: 10, count: 2 })).data;
    const id = await idOf(key);
    expect((await call('PUT', '/api/redemption/', { id, name: 'renamed', quota: 20 })).data).toMatchObject({ name: 'renamed', quota: 20 });
    expect((await call('PUT', '/api/redemption/?status_only=true', { id, status: 2 })).data.status).toBe(2);
    expect((await call('PUT', '/api/redemption/?status_only=true', { id, status: 1 })).data.status).toBe(1);
    expect(await call('PUT', '/api/redemption/?status_only=true', { id, status: 3 })).toEqual({ success: false, message: 'Invalid redemption code status' });

    const user = await createTestUser(testApp);
    expect((await call('POST', '/api/user/topup', { key: usedKey }, user)).success).toBe(true);
    const usedId = await idOf(usedKey);
    expect((await call('GET', `/api/redemption/${usedId}`)).data).toMatchObject({ status: RedemptionStatus.used, used_user_id: user.id });
    expect(await call('PUT', '/api/redemption/', { id: usedId, quota: 99999 })).toEqual({
      success: false,
      message: 'This redemption code has been used and cannot be changed',
    });
    expect(await call('PUT', '/api/redemption/?status_only=true', { id: usedId, status: 1 })).toEqual({
      success: false,
      message: 'This redemption code has been used and cannot be changed',
    });

    expect(await call('DELETE', `/api/redemption/${id}/`)).toEqual({ success: true, message: '' });
    expect(await call('GET', `/api/redemption/${id}`)).toEqual({ success: false, message: 'Redemption code not found' });
    expect((await call('POST', '/api/user/topup', { key }, user)).message).toBe('Invalid redemption code');
  });

  it("clears used, disabled and expired codes at new-api's DELETE /api/redemption/invalid, answering how many", async () => {
    const { db } = testApp.context.database;
    const [used, disabled, expired, live, dated] = (await call('POST', '/api/redemption/', { name: 'sweep', quota: 10, count: 5 })).data as [
      string,
      string,
      string,
      string,
      string,
    ];
    const user = await createTestUser(testApp);
    expect((await call('POST', '/api/user/topup', { key: used }, user)).success).toBe(true);
    expect((await call('PUT', '/api/redemption/?status_only=true', { id: await idOf(disabled), status: 2 })).success).toBe(true);
    const now = testApp.context.clock.unixSeconds();
    await db
      .updateTable('redemptions')
      .set({ expired_time: now - 60 })
      .where('key', '=', expired)
      .execute();
    await db
      .updateTable('redemptions')
      .set({ expired_time: now + 3600 })
      .where('key', '=', dated)
      .execute();
    const liveKeys = async () =>
      (await db.selectFrom('redemptions').select('key').where('deleted_at', 'is', null).execute()).map((row) => row.key).filter((key) => key !== undefined);
    const before = await liveKeys();

    const answer = await call('DELETE', '/api/redemption/invalid');
    const after = await liveKeys();
    expect(answer).toEqual({ success: true, message: '', data: before.length - after.length });
    expect(answer.data).toBeGreaterThanOrEqual(3);
    expect(after).toEqual(expect.arrayContaining([live, dated]));
    for (const gone of [used, disabled, expired]) expect(after).not.toContain(gone);
    expect(after.length).toBeGreaterThan(0);
    expect(await call('DELETE', '/api/redemption/invalid/')).toEqual({ success: true, message: '', data: 0 });
    expect((await call('POST', '/api/user/topup', { key: live }, user)).success).toBe(true);
  });

  it('is for administrators only', async () => {
    const user = await createTestUser(testApp, { role: Role.common });
    const response = await testApp.app.inject({ method: 'GET', url: '/api/redemption/', headers: user.headers });
    expect(response.statusCode).toBe(403);
    const clearing = await testApp.app.inject({ method: 'DELETE', url: '/api/redemption/invalid', headers: user.headers });
    expect(clearing.statusCode).toBe(403);
  });
});
