import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, logsOf } from '../../entry/api/user/testing/account-test-kit.ts';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

const otherOf = (text: string | null | undefined) => {
  const parsed = safeParseJson(text ?? '');
  return parsed.ok ? parsed.value : undefined;
};

describe.each(testDatabases())('log rows name their message for the console on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    member = await createTestUser(testApp, { quota: 1_000 });
  });
  afterAll(async () => {
    await testApp.close();
  });

  it("a redemption keeps new-api's Chinese content, names log.redeem with the quota and code id, and moves the balance once", async () => {
    const codes = await callApi(testApp, 'POST', '/api/redemption/', { headers: root.headers, body: { name: 'gift', quota: 250_000, count: 1 } });
    const redeemed = await callApi(testApp, 'POST', '/api/user/topup', { headers: member.headers, body: { key: (codes.body.data as string[])[0] } });
    expect(redeemed.body.success).toBe(true);
    const rows = (await logsOf(testApp, member.id)).filter((row) => Number(row.type) === 1);
    expect(rows).toHaveLength(1);
    const id = Number(/兑换码ID (\d+)$/.exec(rows[0]!.content ?? '')?.[1]);
    expect(rows[0]!.content).toMatch(/^通过兑换码充值 .+额度，兑换码ID \d+$/);
    expect(Number(rows[0]!.quota)).toBe(250_000);
    expect(otherOf(rows[0]!.other)).toEqual({ content_key: 'log.redeem', content_params: { quota: 250_000, redemption_id: id } });
  });

  it('an administrator’s quota change names who made it and by how much, in either direction', async () => {
    const edit = (quota: number) =>
      callApi(testApp, 'PUT', '/api/user/', {
        headers: root.headers,
        body: { id: member.id, username: member.username, display_name: member.username, group: 'default', quota, remark: '' },
      });
    const before = Number((await testApp.context.database.db.selectFrom('users').select('quota').where('id', '=', member.id).executeTakeFirstOrThrow()).quota);
    expect((await edit(before + 5_000)).body.success).toBe(true);
    expect((await edit(before + 1_000)).body.success).toBe(true);
    const manage = (await logsOf(testApp, member.id)).filter((row) => Number(row.type) === 3).map((row) => otherOf(row.other));
    expect(manage).toEqual([
      { content_key: 'log.admin_add_quota', content_params: { admin: root.username, admin_id: root.id, quota: 5_000 } },
      { content_key: 'log.admin_subtract_quota', content_params: { admin: root.username, admin_id: root.id, quota: 4_000 } },
    ]);
  });
});
