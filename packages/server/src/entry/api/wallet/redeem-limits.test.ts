import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

const sqlite = testDatabases({})[0];
if (!sqlite) throw new Error('SQLite test database missing');

/** Redeem guessing goes through the same failure limiter as logins (http/rate-limit.ts). */
describe('redeem limits', () => {
  let testApp: TestApp;
  let root: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(sqlite);
    root = await rootUser(testApp);
  });
  afterAll(async () => {
    await testApp.close();
  });

  const redeem = async (user: TestUser, key: string, remoteAddress = `10.${randomBytes(3).join('.')}`) => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/user/topup',
      headers: { ...user.headers, 'accept-language': 'en' },
      payload: { key },
      remoteAddress,
    });
    return { status: response.statusCode, body: response.json<{ success: boolean; message: string }>() };
  };

  it('lets at most 10 of 200 parallel unknown codes reach the lookup', async () => {
    const guesser = await createTestUser(testApp);
    const answers = await Promise.all(Array.from({ length: 200 }, (_, index) => redeem(guesser, `guess-${index}`)));
    expect(answers.filter((answer) => answer.body.message === 'Invalid redemption code')).toHaveLength(10);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(190);
  });

  it('never counts real codes, used or not, against the user', async () => {
    const user = await createTestUser(testApp);
    const codes = (
      await testApp.app.inject({ method: 'POST', url: '/api/redemption/', headers: root.headers, payload: { name: 'gift', quota: 100, count: 12 } })
    ).json<{ data: string[] }>().data;
    expect(codes).toHaveLength(12);
    const address = `10.${randomBytes(3).join('.')}`;
    for (const code of codes) expect((await redeem(user, code, address)).body.success).toBe(true);
    for (const code of codes) expect((await redeem(user, code, address)).body.message).toBe('This redemption code has been used');
    expect((await redeem(user, 'unknown-code', address)).body.message).toBe('Invalid redemption code');
  });
});
