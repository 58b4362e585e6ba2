import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startFakeEpay } from './testing/fake-epay.ts';

describe.each(testDatabases())('top-up information and amount discounts on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let epay: Awaited<ReturnType<typeof startFakeEpay>>;

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions read arbitrary envelope data
  const call = (as: TestUser, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<any> =>
    testApp.app
      .inject({ method, url, headers: { ...as.headers, 'accept-language': 'en' }, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((response) => response.json());
  const setOption = (key: string, value: string) => call(root, 'PUT', '/api/option/', { key, value });
  const storedOption = async (key: string) =>
    (await testApp.context.database.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    epay = await startFakeEpay('1001', 'merchant-secret');
  });
  afterAll(async () => {
    await epay.close();
    await testApp.close();
  });
  beforeEach(async () => {
    for (const key of ['PayAddress', 'EpayId', 'EpayKey', 'TopUpLink']) await testApp.context.options.set(key, '');
    await testApp.context.options.set('payment_setting.amount_discount', '{}');
  });

  it("answers new-api's shape with the defaults: online top-up off until Epay is configured", async () => {
    const user = await createTestUser(testApp);
    expect(await call(user, 'GET', '/api/user/topup/info')).toEqual({
      success: true,
      message: '',
      data: {
        enable_online_topup: false,
        enable_stripe_topup: false,
        enable_creem_topup: false,
        pay_methods: [
          { name: '支付宝', color: 'rgba(var(--semi-blue-5), 1)', type: 'alipay' },
          { name: '微信', color: 'rgba(var(--semi-green-5), 1)', type: 'wxpay' },
        ],
        min_topup: 1,
        amount_options: [10, 20, 50, 100, 200, 500],
        discount: {},
        topup_link: '',
      },
    });
  });

  it('is refused to a visitor without a session', async () => {
    const answer = await testApp.app.inject({ method: 'GET', url: '/api/user/topup/info' });
    expect(answer.json().success).toBe(false);
  });

  it('reflects what the administrator saved, and applies the discount of the chosen amount to the price charged', async () => {
    await setOption('ServerAddress', 'https://console.example');
    for (const [key, value] of Object.entries({
      PayAddress: epay.url,
      EpayId: '1001',
      EpayKey: 'merchant-secret',
      MinTopUp: '5',
      TopUpLink: 'https://shop.example/buy',
      PayMethods: JSON.stringify([{ name: 'Alipay', type: 'alipay', color: 'blue', min_topup: 20, extra: 'hidden' }, { name: 'broken' }]),
      'payment_setting.amount_options': '[5, 50, 100]',
      'payment_setting.amount_discount': '{"100": 0.9, "50": 0.95}',
    })) {
      expect(await setOption(key, value)).toEqual({ success: true, message: '' });
    }
    const user = await createTestUser(testApp);
    const info = (await call(user, 'GET', '/api/user/topup/info')).data;
    expect(info).toMatchObject({
      enable_online_topup: true,
      pay_methods: [{ name: 'Alipay', type: 'alipay', color: 'blue', min_topup: '20' }],
      min_topup: 5,
      amount_options: [5, 50, 100],
      discount: { '100': 0.9, '50': 0.95 },
      topup_link: 'https://shop.example/buy',
    });

    // 100 dollars × Price 7.3 × group ratio 1 × 0.9; an amount without a discount pays in full.
    expect((await call(user, 'POST', '/api/user/amount', { amount: 100 })).data).toBe('657.00');
    expect((await call(user, 'POST', '/api/user/amount', { amount: 99 })).data).toBe('722.70');

    // The order stores the discounted sum; the gateway's notice for it credits the full 100 dollars once.
    const pay = await call(user, 'POST', '/api/user/pay', { amount: 100, payment_method: 'alipay' });
    expect(pay.data.money).toBe('657.00');
    await fetch(pay.url, { method: 'POST', body: new URLSearchParams(pay.data) });
    const notify = epay.notifyFor(pay.data.out_trade_no);
    const answer = await testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(notify)}` });
    expect(answer.body).toBe('success');
    const row = await testApp.context.database.db.selectFrom('users').select('quota').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(row.quota)).toBe(100 * 500000);
    const logs = await testApp.context.logDatabase.db.selectFrom('logs').selectAll().where('user_id', '=', user.id).where('type', '=', LogType.topup).execute();
    expect(logs).toHaveLength(1);
    await setOption('MinTopUp', '1');
  });

  it.each([
    ['payment_setting.amount_options', '[10, 0]'],
    ['payment_setting.amount_options', '[10.5]'],
    ['payment_setting.amount_options', '{"10": 1}'],
    ['payment_setting.amount_discount', '{"100": 1.2}'],
    ['payment_setting.amount_discount', '{"100": 0}'],
    ['payment_setting.amount_discount', '{"ten": 0.9}'],
    ['payment_setting.amount_discount', '[0.9]'],
    ['payment_setting.amount_discount', 'not json'],
  ])('refuses %s = %s and keeps the stored value', async (key, value) => {
    const before = await storedOption(key);
    const answer = await setOption(key, value);
    expect(answer.success).toBe(false);
    expect(answer.message).toContain(key);
    expect(await storedOption(key)).toBe(before);
  });
});
