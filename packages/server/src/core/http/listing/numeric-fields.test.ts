import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OptionKey } from '@switchboard/contracts';
import { safeParseJson } from '../../platform/safe-json.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

/**
 * An attacker's table: every value that is not a plain number, sent into the numeric fields of every
 * route that has them. Each must be refused with a message, and the database must not change (a
 * `null` quota used to become a balance of 0, `true` a balance of 1, `"0x10"` 16, `[5]` 5).
 */
const junk: ReadonlyArray<readonly [label: string, value: unknown]> = [
  ['null', null],
  ['an empty array', []],
  ['a one-number array', [5]],
  ['an object', {}],
  ['empty text', ''],
  ['blank text', '  '],
  ['true', true],
  ['false', false],
  ['hex text', '0x10'],
  ['exponent text', '1e3'],
  ['NaN text', 'NaN'],
  ['Infinity text', 'Infinity'],
  ['1e308', 1e308],
  ['a number beyond MAX_SAFE_INTEGER', 2 ** 53 + 2],
  ['digits beyond MAX_SAFE_INTEGER', '9007199254740993'],
  ['a fraction', 1.5],
  ['digits as text', '5'],
];

type Method = 'POST' | 'PUT';

interface Target {
  /** "route field", for the failure list. */
  name: string;
  method: Method;
  url: string;
  body: (value: unknown) => Record<string, unknown>;
  as: () => TestUser;
  /** What must not change. */
  state: () => Promise<unknown>;
  /** Junk labels this field rightly accepts (text is all an option value is). */
  accepts?: readonly string[];
}

describe.each(testDatabases())('numeric fields on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let member: TestUser;
  let tokenId: number;
  let redemptionId: number;
  let channelId: number;

  const db = () => testApp.context.database.db;
  const send = async (as: TestUser, method: Method, url: string, payload: Record<string, unknown>) => {
    const response = await testApp.app.inject({ method, url, headers: { ...as.headers, 'accept-language': 'en' }, payload });
    const json = safeParseJson(response.body);
    const body = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as { success?: unknown; message?: unknown }) : {};
    return { status: response.statusCode, success: body.success === true, message: typeof body.message === 'string' ? body.message : '' };
  };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    member = await createTestUser(testApp, { quota: 1000 });
    await db()
      .updateTable('users')
      .set({ aff_quota: 10 ** 12 })
      .where('id', '=', member.id)
      .execute();
    const options = testApp.context.options;
    await options.set('ServerAddress', 'https://console.example');
    await options.set('PayAddress', 'https://pay.example');
    await options.set('EpayId', '1001');
    await options.set('EpayKey', 'merchant-secret');

    const token = await send(member, 'POST', '/api/token/', { name: 'victim' });
    expect(token.success, token.message).toBe(true);
    tokenId = (await db().selectFrom('tokens').select('id').where('user_id', '=', member.id).executeTakeFirstOrThrow()).id;
    const code = await send(root, 'POST', '/api/redemption/', { name: 'victim', quota: 100 });
    expect(code.success, code.message).toBe(true);
    redemptionId = (await db().selectFrom('redemptions').select('id').executeTakeFirstOrThrow()).id;
    const channel = await send(root, 'POST', '/api/channel/', {
      type: 1,
      name: 'victim',
      key: 'sk-upstream',
      models: 'gpt-4o',
      group: 'default',
      tag: 'team',
      priority: 3,
      weight: 2,
    });
    expect(channel.success, channel.message).toBe(true);
    channelId = (await db().selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => testApp.close());

  const userState = () => db().selectFrom('users').select(['quota', 'aff_quota', 'username', 'role']).where('id', '=', member.id).executeTakeFirstOrThrow();
  const userCount = async () => (await db().selectFrom('users').select('id').execute()).length;
  const tokenState = () => db().selectFrom('tokens').select(['remain_quota', 'expired_time', 'name']).where('id', '=', tokenId).executeTakeFirstOrThrow();
  const tokenCount = async () => (await db().selectFrom('tokens').select('id').execute()).length;
  const redemptionState = async () => ({
    row: await db().selectFrom('redemptions').select(['quota', 'name']).where('id', '=', redemptionId).executeTakeFirstOrThrow(),
    count: (await db().selectFrom('redemptions').select('id').execute()).length,
  });
  const channelState = async () => ({
    channel: await db().selectFrom('channels').select(['priority', 'weight']).where('id', '=', channelId).executeTakeFirstOrThrow(),
    abilities: await db().selectFrom('abilities').select(['priority', 'weight']).where('channel_id', '=', channelId).execute(),
  });
  const optionState = (key: OptionKey) => async () => ({
    memory: testApp.context.options.get(key),
    stored: await db().selectFrom('options').selectAll().where('key', '=', key).execute(),
  });
  const topUpCount = async () => (await db().selectFrom('top_ups').select('id').execute()).length;

  const targets = (): Target[] => [
    {
      name: 'PUT /api/user/ quota',
      method: 'PUT',
      url: '/api/user/',
      body: (quota) => ({ id: member.id, username: member.username, quota }),
      as: () => root,
      state: userState,
    },
    {
      name: 'PUT /api/user/ quota_delta',
      method: 'PUT',
      url: '/api/user/',
      body: (delta) => ({ id: member.id, quota_delta: delta }),
      as: () => root,
      state: userState,
    },
    { name: 'PUT /api/user/ id', method: 'PUT', url: '/api/user/', body: (id) => ({ id, quota: 5 }), as: () => root, state: userState },
    {
      name: 'POST /api/user/ role',
      method: 'POST',
      url: '/api/user/',
      body: (role) => ({ username: 'newbie', password: 'password123', role }),
      as: () => root,
      state: userCount,
    },
    { name: 'POST /api/user/manage id', method: 'POST', url: '/api/user/manage', body: (id) => ({ id, action: 'promote' }), as: () => root, state: userState },
    {
      name: 'POST /api/user/aff_transfer quota',
      method: 'POST',
      url: '/api/user/aff_transfer',
      body: (quota) => ({ quota }),
      as: () => member,
      state: userState,
    },
    {
      name: 'PUT /api/token/ remain_quota',
      method: 'PUT',
      url: '/api/token/',
      body: (quota) => ({ id: tokenId, name: 'victim', remain_quota: quota }),
      as: () => member,
      state: tokenState,
    },
    // Digits are an expiry the console of older versions sends as text.
    {
      name: 'PUT /api/token/ expired_time',
      method: 'PUT',
      url: '/api/token/',
      body: (expiry) => ({ id: tokenId, expired_time: expiry }),
      as: () => member,
      state: tokenState,
      accepts: ['digits as text'],
    },
    { name: 'POST /api/token/ count', method: 'POST', url: '/api/token/', body: (count) => ({ name: 'batch', count }), as: () => member, state: tokenCount },
    {
      name: 'POST /api/redemption/ quota',
      method: 'POST',
      url: '/api/redemption/',
      body: (quota) => ({ name: 'gift', quota }),
      as: () => root,
      state: redemptionState,
    },
    {
      name: 'POST /api/redemption/ count',
      method: 'POST',
      url: '/api/redemption/',
      body: (count) => ({ name: 'gift', quota: 10, count }),
      as: () => root,
      state: redemptionState,
    },
    {
      name: 'PUT /api/redemption/ quota',
      method: 'PUT',
      url: '/api/redemption/',
      body: (quota) => ({ id: redemptionId, quota }),
      as: () => root,
      state: redemptionState,
    },
    {
      name: 'PUT /api/channel/ priority',
      method: 'PUT',
      url: '/api/channel/',
      body: (priority) => ({ id: channelId, priority }),
      as: () => root,
      state: channelState,
    },
    {
      name: 'PUT /api/channel/ weight',
      method: 'PUT',
      url: '/api/channel/',
      body: (weight) => ({ id: channelId, weight }),
      as: () => root,
      state: channelState,
    },
    {
      name: 'PUT /api/channel/tag priority',
      method: 'PUT',
      url: '/api/channel/tag',
      body: (priority) => ({ tag: 'team', priority }),
      as: () => root,
      state: channelState,
    },
    {
      name: 'PUT /api/channel/tag weight',
      method: 'PUT',
      url: '/api/channel/tag',
      body: (weight) => ({ tag: 'team', weight }),
      as: () => root,
      state: channelState,
    },
    {
      name: 'PUT /api/option/ QuotaForNewUser',
      method: 'PUT',
      url: '/api/option/',
      body: (value) => ({ key: 'QuotaForNewUser', value }),
      as: () => root,
      state: optionState('QuotaForNewUser'),
      accepts: ['digits as text'],
    },
    {
      name: 'PUT /api/option/ QuotaPerUnit',
      method: 'PUT',
      url: '/api/option/',
      body: (value) => ({ key: 'QuotaPerUnit', value }),
      as: () => root,
      state: optionState('QuotaPerUnit'),
      accepts: ['digits as text', 'a fraction'],
    },
    { name: 'POST /api/user/amount amount', method: 'POST', url: '/api/user/amount', body: (amount) => ({ amount }), as: () => member, state: topUpCount },
    {
      name: 'POST /api/user/pay amount',
      method: 'POST',
      url: '/api/user/pay',
      body: (amount) => ({ amount, payment_method: 'alipay' }),
      as: () => member,
      state: topUpCount,
    },
  ];

  it('refuses every non-number in every numeric field, with a message, and changes nothing', async () => {
    const accepted: string[] = [];
    for (const target of targets()) {
      for (const [label, value] of junk) {
        if (target.accepts?.includes(label)) continue;
        const before = await target.state();
        const answer = await send(target.as(), target.method, target.url, target.body(value));
        const after = await target.state();
        if (answer.success || answer.message === '' || answer.status >= 500)
          accepted.push(`${target.name} = ${label}: ${answer.status} ${answer.message || '(no message)'}`);
        else if (JSON.stringify(after) !== JSON.stringify(before))
          accepted.push(`${target.name} = ${label}: refused but changed ${JSON.stringify(before)} → ${JSON.stringify(after)}`);
      }
    }
    expect(accepted).toEqual([]);
  });

  it('answers a malformed field with a 400 that names it, in the caller language', async () => {
    expect(await send(root, 'PUT', '/api/user/', { id: member.id, quota: null })).toEqual({ status: 400, success: false, message: 'Invalid parameter: quota' });
    expect(await send(root, 'PUT', '/api/channel/tag', { tag: 'team', weight: '0x10' })).toEqual({
      status: 400,
      success: false,
      message: 'Invalid parameter: weight',
    });
    const zh = await testApp.app.inject({ method: 'PUT', url: '/api/token/', headers: member.headers, payload: { id: tokenId, remain_quota: [5] } });
    expect({ status: zh.statusCode, body: zh.json() }).toEqual({ status: 400, body: { success: false, message: '无效的参数：remain_quota' } });
    expect(Number((await userState()).quota)).toBe(1000);
  });

  it('still takes plain numbers, and digits where only text can be sent', async () => {
    expect((await send(root, 'PUT', '/api/user/', { id: member.id, quota: 2500 })).success).toBe(true);
    expect(Number((await userState()).quota)).toBe(2500);
    expect((await send(root, 'PUT', '/api/user/', { id: member.id, quota_delta: -500 })).success).toBe(true);
    expect(Number((await userState()).quota)).toBe(2000);
    expect((await send(root, 'PUT', '/api/option/', { key: 'QuotaForNewUser', value: '42' })).success).toBe(true);
    expect((await send(root, 'PUT', '/api/option/', { key: 'QuotaForNewUser', value: 43 })).success).toBe(true);
    expect(testApp.context.options.get('QuotaForNewUser')).toBe('43');
    expect((await send(root, 'PUT', '/api/channel/tag', { tag: 'team', priority: 7, weight: null })).success).toBe(true);
    const { channel } = await channelState();
    expect({ priority: Number(channel.priority), weight: Number(channel.weight) }).toEqual({ priority: 7, weight: 2 });
    const page = await testApp.app.inject({ method: 'GET', url: `/api/token/${tokenId}`, headers: member.headers });
    expect(page.json()).toMatchObject({ success: true, data: { id: tokenId } });
    expect((await testApp.app.inject({ method: 'GET', url: '/api/token/0x10', headers: { ...member.headers, 'accept-language': 'en' } })).json()).toEqual({
      success: false,
      message: 'Invalid parameter: id',
    });
  });
});
