import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeParseJson } from '../../platform/safe-json.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

/**
 * Names (token, channel, user, display, group, tag, redemption) refuse control characters on every
 * engine; U+0000 is refused in every field and query, since PostgreSQL cannot store or compare it
 * (it used to answer 500 there, and store the character elsewhere).
 */
const controlCharacters = ['nul\u0000', 'bell\u0007', 'tab\there', 'line\nbreak', 'unit\u001f', 'delete\u007f'];

type Method = 'GET' | 'POST' | 'PUT';

interface NameTarget {
  field: string;
  method: Method;
  url: string;
  body: (name: string) => Record<string, unknown>;
  as: () => TestUser;
}

describe.each(testDatabases())('control characters on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let member: TestUser;
  let tokenId: number;
  let redemptionId: number;
  let channelId: number;

  const db = () => testApp.context.database.db;
  const send = async (as: TestUser, method: Method, url: string, payload?: Record<string, unknown>) => {
    const response = await testApp.app.inject({
      method,
      url,
      headers: { ...as.headers, 'accept-language': 'en' },
      ...(payload === undefined ? {} : { payload }),
    });
    const json = safeParseJson(response.body);
    const body = json.ok && typeof json.value === 'object' && json.value !== null ? (json.value as { success?: unknown; message?: unknown }) : {};
    return { status: response.statusCode, success: body.success, message: body.message };
  };
  /** Every name column the targets can write, to prove nothing was stored. */
  const names = async () => ({
    users: await db().selectFrom('users').select(['username', 'display_name', 'group']).orderBy('id').execute(),
    tokens: await db().selectFrom('tokens').select(['name', 'group']).orderBy('id').execute(),
    channels: await db().selectFrom('channels').select(['name', 'tag', 'group', 'key']).orderBy('id').execute(),
    redemptions: await db().selectFrom('redemptions').select(['name']).orderBy('id').execute(),
  });

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    member = await createTestUser(testApp);
    expect((await send(member, 'POST', '/api/token/', { name: 'plain' })).success).toBe(true);
    tokenId = (await db().selectFrom('tokens').select('id').executeTakeFirstOrThrow()).id;
    expect((await send(root, 'POST', '/api/redemption/', { name: 'plain', quota: 100 })).success).toBe(true);
    redemptionId = (await db().selectFrom('redemptions').select('id').executeTakeFirstOrThrow()).id;
    expect(
      (await send(root, 'POST', '/api/channel/', { type: 1, name: 'plain', key: 'sk-upstream', models: 'gpt-4o', group: 'default', tag: 'team' })).success,
    ).toBe(true);
    channelId = (await db().selectFrom('channels').select('id').executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => testApp.close());

  const targets = (): NameTarget[] => [
    { field: 'name', method: 'POST', url: '/api/token/', body: (name) => ({ name }), as: () => member },
    { field: 'name', method: 'PUT', url: '/api/token/', body: (name) => ({ id: tokenId, name }), as: () => member },
    { field: 'group', method: 'POST', url: '/api/token/', body: (group) => ({ name: 'grouped', group }), as: () => member },
    {
      field: 'channel.name',
      method: 'POST',
      url: '/api/channel/',
      body: (name) => ({ mode: 'single', channel: { type: 1, name, key: 'sk-x', models: 'gpt-4o', group: 'default' } }),
      as: () => root,
    },
    { field: 'name', method: 'PUT', url: '/api/channel/', body: (name) => ({ id: channelId, name }), as: () => root },
    { field: 'tag', method: 'PUT', url: '/api/channel/', body: (tag) => ({ id: channelId, tag }), as: () => root },
    { field: 'group', method: 'PUT', url: '/api/channel/', body: (group) => ({ id: channelId, group: `default,${group}` }), as: () => root },
    { field: 'new_tag', method: 'PUT', url: '/api/channel/tag', body: (tag) => ({ tag: 'team', new_tag: tag }), as: () => root },
    { field: 'tag', method: 'POST', url: '/api/channel/batch/tag', body: (tag) => ({ ids: [channelId], tag }), as: () => root },
    { field: 'username', method: 'POST', url: '/api/user/', body: (username) => ({ username, password: 'password123' }), as: () => root },
    {
      field: 'display_name',
      method: 'POST',
      url: '/api/user/',
      body: (name) => ({ username: 'newbie', password: 'password123', display_name: name }),
      as: () => root,
    },
    { field: 'username', method: 'PUT', url: '/api/user/', body: (username) => ({ id: member.id, username }), as: () => root },
    { field: 'display_name', method: 'PUT', url: '/api/user/', body: (name) => ({ id: member.id, display_name: name }), as: () => root },
    { field: 'group', method: 'PUT', url: '/api/user/', body: (group) => ({ id: member.id, group }), as: () => root },
    { field: 'display_name', method: 'PUT', url: '/api/user/self', body: (name) => ({ display_name: name }), as: () => member },
    { field: 'name', method: 'POST', url: '/api/redemption/', body: (name) => ({ name, quota: 10 }), as: () => root },
    { field: 'name', method: 'PUT', url: '/api/redemption/', body: (name) => ({ id: redemptionId, name }), as: () => root },
  ];

  it('refuses a control character in every name with a 400 that names the field, storing nothing', async () => {
    const before = await names();
    const wrong: string[] = [];
    for (const target of targets()) {
      for (const text of controlCharacters) {
        const answer = await send(target.as(), target.method, target.url, target.body(text));
        const expected = `${target.field} must not contain control characters`;
        if (answer.status !== 400 || answer.message !== expected)
          wrong.push(`${target.method} ${target.url} ${target.field}=${JSON.stringify(text)}: ${answer.status} ${String(answer.message)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await names()).toEqual(before);
  });

  it('refuses a control character in the suffix a copied channel adds to its name', async () => {
    const before = await names();
    expect(await send(root, 'POST', `/api/channel/copy/${channelId}?suffix=%00`)).toEqual({
      status: 400,
      success: false,
      message: 'suffix must not contain control characters',
    });
    expect(await send(root, 'POST', `/api/channel/copy/${channelId}?suffix=%0A`)).toEqual({
      status: 400,
      success: false,
      message: 'suffix must not contain control characters',
    });
    expect(await names()).toEqual(before);
  });

  it('refuses U+0000 in any other field or search, where other control characters stay allowed', async () => {
    const before = await names();
    const nul = { status: 400, success: false };
    expect(await send(root, 'PUT', '/api/channel/', { id: channelId, key: 'sk-\u0000' })).toEqual({
      ...nul,
      message: 'key must not contain the NUL character (U+0000)',
    });
    expect(await send(root, 'POST', '/api/user/login', { username: 'root\u0000', password: 'x' })).toEqual({
      ...nul,
      message: 'username must not contain the NUL character (U+0000)',
    });
    expect(await send(member, 'GET', '/api/token/search?keyword=%00')).toEqual({ ...nul, message: 'keyword must not contain the NUL character (U+0000)' });
    expect(await send(root, 'GET', '/api/user/search?keyword=a%00')).toEqual({ ...nul, message: 'keyword must not contain the NUL character (U+0000)' });
    expect(await send(root, 'GET', '/api/channel/search?keyword=%00')).toEqual({ ...nul, message: 'keyword must not contain the NUL character (U+0000)' });
    expect(await names()).toEqual(before);
    expect(await send(root, 'PUT', '/api/user/', { id: member.id, remark: 'two\nlines\tand a tab' })).toMatchObject({ status: 200, success: true });
    expect((await db().selectFrom('users').select('remark').where('id', '=', member.id).executeTakeFirstOrThrow()).remark).toBe('two\nlines\tand a tab');
  });

  it('says it in Chinese to the console default', async () => {
    const response = await testApp.app.inject({ method: 'POST', url: '/api/token/', headers: member.headers, payload: { name: 'a\u0000b' } });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 400, body: { success: false, message: 'name 不能包含控制字符' } });
  });
});
