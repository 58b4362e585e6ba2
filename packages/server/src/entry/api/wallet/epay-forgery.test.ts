import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { signLikeEpayGateway, startFakeEpay } from './testing/fake-epay.ts';

const merchantKey = 'merchant-secret';

/**
 * Issue 16, item 2: the Epay signature is an MD5 over `name=value&…` of raw values, so a value holding
 * `&` or `=` can make two different parameter sets sign the same text. These tests forge exactly that.
 */
describe.each(testDatabases())('forged Epay payments on $dialect', (database) => {
  let testApp: TestApp;
  let epay: Awaited<ReturnType<typeof startFakeEpay>>;

  const call = (as: TestUser, url: string, payload: object, language = 'en') =>
    testApp.app.inject({ method: 'POST', url, headers: { ...as.headers, 'accept-language': language }, payload }).then((response) => response.json());
  const notifyByGet = (parameters: Record<string, string>) =>
    testApp.app.inject({ method: 'GET', url: `/api/user/epay/notify?${new URLSearchParams(parameters)}` }).then((response) => response.body);
  const notifyByPost = (parameters: Record<string, string>) =>
    testApp.app
      .inject({
        method: 'POST',
        url: '/api/user/epay/notify',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(parameters).toString(),
      })
      .then((response) => response.body);
  const quotaOf = async (userId: number) =>
    Number((await testApp.context.database.db.selectFrom('users').select('quota').where('id', '=', userId).executeTakeFirstOrThrow()).quota);
  const ordersOf = (userId: number) => testApp.context.database.db.selectFrom('top_ups').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  /** Signed by the merchant key exactly as a gateway (or this server before the fix) would sign it. */
  const signed = (parameters: Record<string, string>): Record<string, string> => ({
    ...parameters,
    sign: signLikeEpayGateway(parameters, merchantKey),
    sign_type: 'MD5',
  });
  const without = (parameters: Record<string, string>, name: string) =>
    signed(Object.fromEntries(Object.entries(parameters).filter(([key]) => key !== name && key !== 'sign' && key !== 'sign_type')));
  const paidOrder = async (user: TestUser, amount: number, paymentMethod: string) => {
    const pay = await call(user, '/api/user/pay', { amount, payment_method: paymentMethod });
    expect(pay.success).toBe(true);
    expect((await fetch(pay.url, { method: 'POST', body: new URLSearchParams(pay.data) })).status).toBe(200);
    return pay.data as Record<string, string>;
  };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    epay = await startFakeEpay('1001', merchantKey);
    const options = testApp.context.options;
    await options.set('PayAddress', epay.url);
    await options.set('EpayId', '1001');
    await options.set('EpayKey', merchantKey);
    await options.set('ServerAddress', 'https://console.example');
  });
  afterAll(async () => {
    await epay.close();
    await testApp.close();
  });

  it("the issue's attack: a payment method carrying `&trade_status=TRADE_SUCCESS` gets no signed form, so the re-posted notify credits nothing", async () => {
    const user = await createTestUser(testApp);
    const pay = await call(user, '/api/user/pay', { amount: 1000, payment_method: 'alipay&trade_status=TRADE_SUCCESS' });
    // The attacker re-posts whatever was signed, moving `type=alipay` into return_url so the joined text is unchanged.
    const form: Record<string, string> = pay.data ?? {};
    const { type: _type, sign_type: _signType, ...rest } = form;
    const forged: Record<string, string> = { ...rest, return_url: `${form.return_url ?? ''}&type=alipay`, trade_status: 'TRADE_SUCCESS' };
    expect(await notifyByPost(forged)).toBe('fail');
    expect(await quotaOf(user.id)).toBe(0);
    expect(await ordersOf(user.id)).toEqual([]);
    expect(pay).toEqual({ success: false, message: 'This payment method is not available' });
  });

  it('refuses a notify whose signed text was made ambiguous, even for a pending order recorded before the fix', async () => {
    const user = await createTestUser(testApp);
    const tradeNo = `USR${user.id}NOabcdef1700000000`;
    const smuggled = 'alipay&trade_status=TRADE_SUCCESS';
    await testApp.context.database.db
      .insertInto('top_ups')
      .values({
        user_id: user.id,
        amount: 1000,
        money: 7300,
        trade_no: tradeNo,
        payment_method: smuggled,
        create_time: 1700000000,
        complete_time: 0,
        status: 'pending',
      })
      .execute();
    // Byte for byte the form the old server signed, then re-posted as a paid notify.
    const form = signed({
      pid: '1001',
      type: smuggled,
      out_trade_no: tradeNo,
      notify_url: 'https://console.example/api/user/epay/notify',
      return_url: 'https://console.example/log',
      name: 'TUC1000',
      money: '7300.00',
    });
    const { type: _type, sign_type: _signType, ...rest } = form;
    const forged: Record<string, string> = { ...rest, return_url: `${form.return_url ?? ''}&type=alipay`, trade_status: 'TRADE_SUCCESS' };
    expect(forged.sign).toBe(signLikeEpayGateway(forged, merchantKey));
    expect(await notifyByGet(forged)).toBe('fail');
    // Even a notify whose `type` equals the smuggled method the order recorded is refused.
    expect(
      await notifyByPost(
        signed({ pid: '1001', trade_no: 'EP1', out_trade_no: tradeNo, type: smuggled, name: 'TUC1000', money: '7300.00', trade_status: 'TRADE_SUCCESS' }),
      ),
    ).toBe('fail');
    expect(await quotaOf(user.id)).toBe(0);
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['pending']);
  });

  it('refuses correctly signed notifies that smuggle & = or control characters, lack trade_no or type, or do not match the order', async () => {
    const user = await createTestUser(testApp);
    const small = await paidOrder(user, 2, 'wxpay');
    const big = await paidOrder(user, 1000, 'zfb');
    const smallNo = small.out_trade_no ?? '';
    const bigNo = big.out_trade_no ?? '';
    const genuine = epay.notifyFor(smallNo);
    const forgeries: Array<Record<string, string>> = [
      epay.notifyFor(smallNo, { name: 'TUC2&trade_status=TRADE_SUCCESS' }),
      epay.notifyFor(smallNo, { trade_no: 'EP1=1' }),
      epay.notifyFor(smallNo, { trade_no: 'EP1\n' }),
      epay.notifyFor(smallNo, { trade_no: 'EP\u00001' }),
      epay.notifyFor(smallNo, { 'param&money': '1' }),
      epay.notifyFor(smallNo, { 'param=x': '1' }),
      epay.notifyFor(smallNo, { trade_no: '' }),
      without(genuine, 'trade_no'),
      epay.notifyFor(smallNo, { type: '' }),
      without(genuine, 'type'),
      without(genuine, 'out_trade_no'),
      without(genuine, 'money'),
      epay.notifyFor(smallNo, { type: 'alipay' }),
      epay.notifyFor(smallNo, { money: big.money ?? '' }),
      epay.notifyFor(smallNo, { money: '1.46e1' }),
      epay.notifyFor(smallNo, { money: ' 14.60' }),
      epay.notifyFor(bigNo, { money: small.money ?? '' }),
      epay.notifyFor(bigNo, { type: 'wxpay' }),
    ];
    for (const forged of forgeries) {
      expect([await notifyByGet(forged), await notifyByPost(forged)]).toEqual(['fail', 'fail']);
    }
    expect(await quotaOf(user.id)).toBe(0);
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['pending', 'pending']);

    // The genuine callback still goes through, for its own order only.
    expect(await notifyByGet(genuine)).toBe('success');
    expect(await quotaOf(user.id)).toBe(2 * 500000);
    expect((await ordersOf(user.id)).map((order) => order.status)).toEqual(['success', 'pending']);
  });

  it('answers an anonymous notify with 100,000-deep nesting, or with objects and numbers for fields, plainly and credits nothing', async () => {
    const user = await createTestUser(testApp);
    const order = await paidOrder(user, 2, 'wxpay');
    const genuine = epay.notifyFor(order.out_trade_no ?? '');
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    for (const payload of [
      `{"money":${deep}}`,
      `{"sign":${deep},"out_trade_no":${deep}}`,
      JSON.stringify({ ...genuine, money: [Number(genuine.money)] }),
      JSON.stringify({ ...genuine, trade_no: { toString: genuine.trade_no } }),
    ]) {
      const answer = await testApp.app.inject({ method: 'POST', url: '/api/user/epay/notify', headers: { 'content-type': 'application/json' }, payload });
      expect([answer.statusCode, answer.body]).toEqual([200, 'fail']);
    }
    expect(await quotaOf(user.id)).toBe(0);
  });

  it('accepts only the payment methods configured in PayMethods (and the console aliases zfb, wx)', async () => {
    const user = await createTestUser(testApp);
    const typeFor = async (method: unknown) => {
      const answer = await call(user, '/api/user/pay', { amount: 1, payment_method: method });
      return answer.success ? (answer.data.type as string) : (answer.message as string);
    };
    // One after the other, so the orders' ids follow the calls.
    const typesFor = async (methods: unknown[]) => {
      const types: string[] = [];
      for (const method of methods) types.push(await typeFor(method));
      return types;
    };
    expect(await typesFor(['zfb', 'wx', 'alipay', 'wxpay'])).toEqual(['alipay', 'wxpay', 'alipay', 'wxpay']);
    for (const method of ['bitcoin', '', null, 'alipay ', 'ALIPAY', 'alipay&x=1', 'zfb=1'])
      expect(await typeFor(method)).toBe('This payment method is not available');
    expect(await call(user, '/api/user/pay', { amount: 1, payment_method: 'bitcoin' }, 'zh')).toEqual({ success: false, message: '支付方式不存在' });

    await testApp.context.options.set(
      'PayMethods',
      JSON.stringify([
        { name: '支付宝', color: 'blue', type: 'alipay' },
        { name: 'QQ', type: 'qqpay', min_topup: '1' },
        { name: 'bad', type: 'qq&pay=1' },
        'wxpay',
      ]),
    );
    expect(await typesFor(['zfb', 'qqpay', 'wx', 'wxpay', 'qq&pay=1'])).toEqual([
      'alipay',
      'qqpay',
      'This payment method is not available',
      'This payment method is not available',
      'This payment method is not available',
    ]);
    await testApp.context.options.set('PayMethods', 'not json');
    expect(await typeFor('alipay')).toBe('alipay');
    await testApp.context.options.set('PayMethods', '[]');
    expect(await typeFor('alipay')).toBe('This payment method is not available');
    await testApp.context.options.set('PayMethods', (await import('@switchboard/contracts')).optionDefinitions.PayMethods.defaultValue);
    expect((await ordersOf(user.id)).map((order) => order.payment_method)).toEqual(['alipay', 'wxpay', 'alipay', 'wxpay', 'alipay', 'qqpay', 'alipay']);
  });

  it('bounds the amount so its quota is never absurd, in the unit the console sends, in zh and en', async () => {
    const user = await createTestUser(testApp);
    const options = testApp.context.options;
    const tooMuch = { success: false, message: 'Top-up amount cannot be more than 100000' };
    expect(await call(user, '/api/user/pay', { amount: 100001, payment_method: 'zfb' })).toEqual(tooMuch);
    expect(await call(user, '/api/user/pay', { amount: Number.MAX_SAFE_INTEGER, payment_method: 'zfb' })).toEqual(tooMuch);
    // Beyond exact integers the body parser already refuses the field; either way no order exists.
    for (const absurd of [1e300, '9007199254740993', -1, 2.5])
      expect((await call(user, '/api/user/pay', { amount: absurd, payment_method: 'zfb' })).success).toBe(false);
    expect(await call(user, '/api/user/amount', { amount: 100001 })).toEqual(tooMuch);
    expect(await call(user, '/api/user/pay', { amount: 100001, payment_method: 'zfb' }, 'zh')).toEqual({ success: false, message: '充值数量不能大于 100000' });
    expect((await call(user, '/api/user/pay', { amount: 100000, payment_method: 'zfb' })).data.money).toBe('730000.00');

    // With currency display off the console sends quota units: the same bound, in quota.
    await options.set('DisplayInCurrencyEnabled', 'false');
    expect(await call(user, '/api/user/amount', { amount: 50_000_000_001 })).toEqual({
      success: false,
      message: 'Top-up amount cannot be more than 50000000000',
    });
    expect((await call(user, '/api/user/amount', { amount: 50_000_000_000 })).data).toBe('730000.00');
    await options.set('DisplayInCurrencyEnabled', 'true');

    // A huge QuotaPerUnit lowers the bound so that one top-up's quota stays far from losing precision.
    await options.set('QuotaPerUnit', '1000000000');
    expect(await call(user, '/api/user/pay', { amount: 10000, payment_method: 'zfb' })).toEqual({
      success: false,
      message: 'Top-up amount cannot be more than 8796',
    });
    await options.set('QuotaPerUnit', '500000');
    expect((await ordersOf(user.id)).map((order) => Number(order.amount))).toEqual([100000]);
  });

  it('refuses to sign a form when a configured value would make the signed text ambiguous', async () => {
    const user = await createTestUser(testApp);
    await testApp.context.options.set('ServerAddress', 'https://console.example/?site=a');
    expect(await call(user, '/api/user/pay', { amount: 1, payment_method: 'zfb' })).toEqual({
      success: false,
      message:
        'Payment field notify_url contains &, = or a control character and cannot be signed for Epay; the administrator must correct the payment settings',
    });
    expect((await call(user, '/api/user/pay', { amount: 1, payment_method: 'zfb' }, 'zh')).message).toBe(
      '支付参数 notify_url 含有 &、= 或控制字符，无法进行易支付签名，请管理员修改支付设置',
    );
    await testApp.context.options.set('ServerAddress', 'https://console.example');
    expect(await ordersOf(user.id)).toEqual([]);
  });
});
