import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType, RedemptionStatus } from '@switchboard/contracts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startFakeEpay } from './testing/fake-epay.ts';

describe.each(testDatabases())('wallet on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let epay: Awaited<ReturnType<typeof startFakeEpay>>;

  const call = (as: TestUser, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    testApp.app
      .inject({ method, url, headers: { ...as.headers, 'accept-language': 'en' }, ...(payload === undefined ? {} : { payload: payload as object }) })
      .then((response) => response.json());
  const quotaOf = async (userId: number) =>
    Number((await testApp.context.database.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);
  const topUpLogs = (userId: number) =>
    testApp.context.logDatabase.db.selectFrom('logs').selectAll().where('user_id', '=', userId).where('type', '=', LogType.topup).execute();
  const newCode = async (fields: Record<string, unknown> = {}) =>
    ((await call(root, 'POST', '/api/redemption/', { name: 'gift', quota: 300000, ...fields })).data as string[])[0] ?? '';

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    epay = await startFakeEpay('1001', 'merchant-secret');
    const options = testApp.context.options;
    await options.set('PayAddress', epay.url);
    await options.set('EpayId', '1001');
    await options.set('EpayKey', 'merchant-secret');
    await options.set('ServerAddress', 'https://console.example');
    await options.set('TopupGroupRatio', JSON.stringify({ default: 1, vip: 1.5 }));
  });
  afterAll(async () => {
    await epay.close();
    await testApp.close();
  });

  it('redeems a code once, with a top-up log, even under concurrent duplicate calls', async () => {
    const user = await createTestUser(testApp, { quota: 1000 });
    const code = await newCode();
    const published: string[] = [];
    testApp.context.bus.subscribe('users', (payload) => void published.push(payload));
    const answers = await Promise.all(Array.from({ length: 8 }, () => call(user, 'POST', '/api/user/topup', { key: code })));
    expect(answers.filter((answer) => answer.success)).toEqual([{ success: true, message: '', data: 300000 }]);
    expect(answers.filter((answer) => !answer.success).every((answer) => answer.message === 'This redemption code has been used')).toBe(true);
    expect(await quotaOf(user.id)).toBe(301000);
    const logs = await topUpLogs(user.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ quota: 300000, username: user.username });
    expect(logs[0]?.content).toContain('兑换码ID');
    expect(published).toContain(String(user.id));
    const stored = await testApp.context.database.db.selectFrom('redemptions').selectAll().where('key', '=', code).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ status: RedemptionStatus.used, used_user_id: user.id });
  });

  it('credits one code once when two users race for it', async () => {
    const [first, second] = [await createTestUser(testApp), await createTestUser(testApp)];
    const code = await newCode({ quota: 5000 });
    await Promise.all(
      [first, second].flatMap((user) => [call(user, 'POST', '/api/user/topup', { key: code }), call(user, 'POST', '/api/user/topup', { key: code })]),
    );
    expect((await quotaOf(first.id)) + (await quotaOf(second.id))).toBe(5000);
  });

  it('refuses missing, unknown, disabled and expired codes without changing anything', async () => {
    const user = await createTestUser(testApp);
    expect(await call(user, 'POST', '/api/user/topup', { key: '  ' })).toEqual({ success: false, message: 'Please enter a redemption code' });
    expect(await call(user, 'POST', '/api/user/topup', { key: 'f'.repeat(32) })).toEqual({ success: false, message: 'Invalid redemption code' });
    const disabled = await newCode();
    const id = (await call(root, 'GET', `/api/redemption/search?keyword=gift`)).data.find((row: { key: string }) => row.key === disabled).id;
    await testApp.app.inject({ method: 'PUT', url: '/api/redemption/?status_only=true', headers: root.headers, payload: { id, status: 2 } });
    expect(await call(user, 'POST', '/api/user/topup', { key: disabled })).toEqual({ success: false, message: 'This redemption code is disabled' });
    const expired = await newCode({ expired_time: 1000 });
    expect(await call(user, 'POST', '/api/user/topup', { key: expired })).toEqual({ success: false, message: 'This redemption code has expired' });
    expect(await quotaOf(user.id)).toBe(0);
    expect(await topUpLogs(user.id)).toEqual([]);
  });

  it('throttles guessing: after 10 unknown codes a user must wait, even with a real code', async () => {
    const guesser = await createTestUser(testApp);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      expect((await call(guesser, 'POST', '/api/user/topup', { key: `guess${attempt}` })).message).toBe('Invalid redemption code');
    }
    const code = await newCode();
    const refused = await testApp.app.inject({
      method: 'POST',
      url: '/api/user/topup',
      headers: { ...guesser.headers, 'accept-language': 'en' },
      payload: { key: code },
    });
    expect(refused.statusCode).toBe(429);
    expect(await quotaOf(guesser.id)).toBe(0);
  });

  it('quotes the payable amount from Price, TopupGroupRatio and the user group, and enforces MinTopUp', async () => {
    const regular = await createTestUser(testApp);
    const vip = await createTestUser(testApp, { group: 'vip' });
    expect(await call(regular, 'POST', '/api/user/amount', { amount: 10, top_up_code: '' })).toEqual({ success: true, message: 'success', data: '73.00' });
    expect((await call(vip, 'POST', '/api/user/amount', { amount: 10 })).data).toBe('109.50');
    await testApp.context.options.set('MinTopUp', '5');
    expect(await call(regular, 'POST', '/api/user/amount', { amount: 4 })).toEqual({ success: false, message: 'Top-up amount cannot be less than 5' });
    expect((await call(regular, 'POST', '/api/user/pay', { amount: 4, payment_method: 'zfb' })).message).toBe('Top-up amount cannot be less than 5');
    await testApp.context.options.set('MinTopUp', '1');
  });

  it('pays through Epay and credits exactly once however often and however concurrently the gateway notifies', async () => {
    const user = await createTestUser(testApp);
    const pay = await call(user, 'POST', '/api/user/pay', { amount: 10, payment_method: 'zfb' });
    expect(pay).toMatchObject({ success: true, message: 'success', url: `${epay.url}/submit.php` });
    expect(pay.data).toMatchObject({
      pid: '1001',
      type: 'alipay',
      money: '73.00',
      name: 'TUC10',
      notify_url: 'https://console.example/api/user/epay/notify',
      return_url: 'https://console.example/log',
      sign_type: 'MD5',
    });
    const tradeNo: string = pay.data.out_trade_no;
    expect(tradeNo).toMatch(new RegExp(`^USR${user.id}NO[0-9A-Za-z]{6}\\d+$`));

    // The browser posts the hidden form to the gateway, which accepts only a correctly signed one.
    const submitted = await fetch(pay.url, { method: 'POST', body: new URLSearchParams(pay.data) });
    expect(submitted.status).toBe(200);
    const tampered = await fetch(pay.url, { method: 'POST', body: new URLSearchParams({ ...pay.data, money: '0.01' }) });
    expect(tampered.status).toBe(400);

    const notify = epay.notifyFor(tradeNo);
    const calls = Array.from({ length: 10 }, (_, index) =>
      index % 2 === 0
        ? testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(notify)}` })
        : testApp.app.inject({
            method: 'POST',
            url: '/api/user/epay/notify',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams(notify).toString(),
          }),
    );
    const answers = await Promise.all(calls);
    expect(answers.map((answer) => answer.body)).toEqual(Array(10).fill('success'));
    expect(await quotaOf(user.id)).toBe(10 * 500000);
    const logs = await topUpLogs(user.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ quota: 5000000, username: user.username });
    const order = await testApp.context.database.db.selectFrom('top_ups').selectAll().where('trade_no', '=', tradeNo).executeTakeFirstOrThrow();
    expect(order).toMatchObject({ status: 'success', amount: 10, user_id: user.id });

    const replay = await testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(notify)}` });
    expect(replay.body).toBe('success');
    expect(await quotaOf(user.id)).toBe(5000000);
    const own = await call(user, 'GET', '/api/user/topup/self');
    expect(own.data.map((row: { trade_no: string }) => row.trade_no)).toEqual([tradeNo]);
  });

  it('credits exactly the quota units paid for when the site shows quota instead of currency', async () => {
    const { options } = testApp.context;
    await options.set('DisplayInCurrencyEnabled', 'false');
    try {
      const user = await createTestUser(testApp);
      // 999,999 units are 1.999998 dollars: 14.60 at Price 7.3, and 999,999 units credited, not 500,000.
      expect((await call(user, 'POST', '/api/user/amount', { amount: 999_999 })).data).toBe('14.60');
      const pay = await call(user, 'POST', '/api/user/pay', { amount: 999_999, payment_method: 'zfb' });
      expect(pay.data.money).toBe('14.60');
      await fetch(pay.url, { method: 'POST', body: new URLSearchParams(pay.data) });
      const notified = await testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(epay.notifyFor(pay.data.out_trade_no))}` });
      expect(notified.body).toBe('success');
      expect(await quotaOf(user.id)).toBe(999_999);
      expect((await topUpLogs(user.id)).map((log) => log.quota)).toEqual([999_999]);
      // A setting changed between the order and the payment does not change what the order credits.
      const second = await call(user, 'POST', '/api/user/pay', { amount: 1_234_567, payment_method: 'zfb' });
      await fetch(second.url, { method: 'POST', body: new URLSearchParams(second.data) });
      await options.set('DisplayInCurrencyEnabled', 'true');
      await testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(epay.notifyFor(second.data.out_trade_no))}` });
      expect(await quotaOf(user.id)).toBe(999_999 + 1_234_567);
    } finally {
      await options.set('DisplayInCurrencyEnabled', 'true');
    }
  });

  it('ignores forged, mismatched and unpaid notifications', async () => {
    const user = await createTestUser(testApp);
    const pay = await call(user, 'POST', '/api/user/pay', { amount: 2, payment_method: 'wxpay' });
    await fetch(pay.url, { method: 'POST', body: new URLSearchParams(pay.data) });
    const tradeNo: string = pay.data.out_trade_no;
    const notifyWith = (parameters: Record<string, string>) =>
      testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(parameters)}` }).then((response) => response.body);

    const genuine = epay.notifyFor(tradeNo);
    expect(await notifyWith({ ...genuine, sign: '0'.repeat(32) })).toBe('fail');
    expect(await notifyWith({ ...genuine, money: '0.01' })).toBe('fail');
    expect(await notifyWith(epay.notifyFor(tradeNo, { money: '0.01' }))).toBe('fail');
    expect(await notifyWith(epay.notifyFor(tradeNo, { pid: '9999' }))).toBe('fail');
    expect(await notifyWith(epay.notifyFor(tradeNo, { out_trade_no: 'USR1NOforged1' }))).toBe('fail');
    expect(await notifyWith(epay.notifyFor(tradeNo, { trade_status: 'WAIT_BUYER_PAY' }))).toBe('success');
    expect(await quotaOf(user.id)).toBe(0);
    expect((await testApp.context.database.db.selectFrom('top_ups').select('status').where('trade_no', '=', tradeNo).executeTakeFirstOrThrow()).status).toBe(
      'pending',
    );
  });

  it('refuses online payment until the administrator configures it', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.options.set('EpayKey', '');
    expect(await call(user, 'POST', '/api/user/pay', { amount: 10, payment_method: 'zfb' })).toEqual({
      success: false,
      message: 'The administrator has not configured online payment',
    });
    const forged = await testApp.app.inject({
      method: 'GET',
      url: '/api/user/epay/notify?pid=1001&out_trade_no=x&money=1&trade_status=TRADE_SUCCESS&sign=abc',
    });
    expect(forged.body).toBe('fail');
    await testApp.context.options.set('EpayKey', 'merchant-secret');
  });

  it('refuses online payment while ServerAddress is empty, since the order could never come back, and records no order', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.options.set('ServerAddress', '');
    expect(await call(user, 'POST', '/api/user/pay', { amount: 10, payment_method: 'zfb' })).toEqual({
      success: false,
      message: 'The administrator has not configured online payment',
    });
    expect(await testApp.context.database.db.selectFrom('top_ups').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    await testApp.context.options.set('ServerAddress', 'https://console.example');
  });
});
