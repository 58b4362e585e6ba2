import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { type ConsoleCall, type ConsoleFixture, consoleFixture, namedShapes } from './testing/console-fixtures.ts';
import { shapeMismatches } from './testing/wire-shape.ts';

/**
 * new-api's own consoles against Switchboard: every `/api` call each console makes (recorded in
 * `__fixtures__/`, derived from that console's source) is sent in order, as the screen named would
 * send it, and the answer must have the shape that console reads. The classic console runs with
 * `PagedListsEnabled` off, the later one with it on; a change of shape fails here.
 */
const shapes = namedShapes();
const future = 4_000_000_000;

interface Seeded {
  root: TestUser;
  member: TestUser;
  values: Record<string, string | number>;
}

async function seed(testApp: TestApp): Promise<Seeded> {
  const root = await rootUser(testApp);
  const member = await createTestUser(testApp, { username: 'member_m', quota: 1_000_000 });
  const { db } = testApp.context.database;
  const send = async (as: TestUser, method: 'POST', url: string, payload: Record<string, unknown>) => {
    const response = await testApp.app.inject({ method, url, headers: as.headers, payload });
    expect(response.json(), `${method} ${url}`).toMatchObject({ success: true });
  };
  await send(member, 'POST', '/api/token/', { name: 'member key' });
  await send(root, 'POST', '/api/channel/', { type: 1, name: 'upstream one', key: 'sk-upstream', models: 'gpt-4o', group: 'default' });
  await send(root, 'POST', '/api/redemption/', { name: 'gift', quota: 100_000 });
  const ids = {
    memberTokenId: (await db.selectFrom('tokens').select('id').where('user_id', '=', member.id).executeTakeFirstOrThrow()).id,
    channelId: (await db.selectFrom('channels').select('id').executeTakeFirstOrThrow()).id,
    redemptionId: (await db.selectFrom('redemptions').select('id').executeTakeFirstOrThrow()).id,
  };
  const drawing = { code: 1, action: 'IMAGINE', prompt: 'a cat', prompt_en: 'a cat', description: '', state: '', submit_time: 1_700_000_000_000 };
  await db
    .insertInto('midjourneys')
    .values({
      ...drawing,
      user_id: member.id,
      mj_id: 'mj-1',
      start_time: 0,
      finish_time: 0,
      image_url: '',
      video_url: '',
      video_urls: '',
      status: 'SUCCESS',
      progress: '100%',
      fail_reason: '',
      channel_id: ids.channelId,
      quota: 1,
      buttons: '[]',
      properties: '{}',
    })
    .execute();
  await db
    .insertInto('tasks')
    .values({
      created_at: 1_700_000_000,
      updated_at: 1_700_000_000,
      task_id: 't-1',
      platform: 'suno',
      user_id: member.id,
      group: 'default',
      channel_id: ids.channelId,
      quota: 1,
      action: 'MUSIC',
      status: 'SUCCESS',
      fail_reason: '',
      submit_time: 1_700_000_000,
      start_time: 1_700_000_001,
      finish_time: 1_700_000_100,
      progress: '100%',
      properties: '{}',
      private_data: '{}',
      data: '[]',
    })
    .execute();
  await testApp.context.logWriter.record({ user_id: member.id, username: member.username, type: LogType.topup, content: 'seeded' });
  return { root, member, values: { ...ids, memberId: member.id, memberName: member.username, future, futureMs: future * 1000 } };
}

/** `{name}` → the value; a whole-string placeholder keeps a number a number (ids in bodies). */
function fill(value: unknown, values: Record<string, string | number>): unknown {
  if (typeof value === 'string') {
    const whole = /^\{(\w+)\}$/.exec(value);
    if (whole?.[1] !== undefined && whole[1] in values) return values[whole[1]];
    return value.replace(/\{(\w+)\}/g, (text, name: string) => (name in values ? String(values[name]) : text));
  }
  if (Array.isArray(value)) return value.map((element) => fill(element, values));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, element]) => [key, fill(element, values)]));
  return value;
}

function at(answer: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined), answer);
}

/** What is wrong with the answer to one call, as lines naming the call; empty when the console reads it fine. */
async function checkCall(testApp: TestApp, seeded: Seeded, call: ConsoleCall): Promise<string[]> {
  const url = String(fill(call.url, seeded.values));
  const headers = call.as === 'anonymous' ? {} : seeded[call.as].headers;
  const response = await testApp.app.inject({
    method: call.method,
    url,
    headers: { ...headers, 'accept-language': 'en' },
    ...(call.body === undefined ? {} : { payload: fill(call.body, seeded.values) as Record<string, unknown> }),
  });
  const label = `${call.screen}: ${call.method} ${url}`;
  const parsed = safeParseJson(response.body);
  const body = parsed.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>) : {};
  if (response.statusCode !== 200 || body.success !== true) return [`${label}: ${response.statusCode} ${String(body.message ?? response.body)}`];
  const wrong = call.reads === null ? [] : shapeMismatches(call.reads, body.data, shapes);
  if (call.besideData) wrong.push(...shapeMismatches(call.besideData, body, shapes, 'answer'));
  if (call.page !== undefined && at(body, 'data.page') !== call.page) wrong.push(`data.page: expected ${call.page}, got ${String(at(body, 'data.page'))}`);
  if (call.optionKeys) {
    const keys = new Set((Array.isArray(body.data) ? body.data : []).map((option) => at(option, 'key')));
    wrong.push(...call.optionKeys.filter((key) => !keys.has(key)).map((key) => `data: no option ${key}`));
  }
  for (const [name, path] of Object.entries(call.capture ?? {})) {
    const value = at(body, path);
    if (typeof value === 'string' || typeof value === 'number') seeded.values[name] = value;
    else wrong.push(`${path}: nothing to capture as ${name}`);
  }
  return wrong.map((line) => `${label}: ${line}`);
}

async function runConsole(testApp: TestApp, seeded: Seeded, fixture: ConsoleFixture): Promise<string[]> {
  const failures: string[] = [];
  for (const call of fixture.calls) failures.push(...(await checkCall(testApp, seeded, call)));
  return failures;
}

describe.each(testDatabases())("new-api's consoles against Switchboard on $dialect", (database) => {
  const fixtures = [consoleFixture('classic-console.json'), consoleFixture('paged-console.json')];

  describe.each(fixtures)('$dialect dialect', (fixture) => {
    let testApp: TestApp;
    let seeded: Seeded;

    beforeAll(async () => {
      testApp = await createTestApp(database);
      await testApp.context.options.set('PagedListsEnabled', fixture.dialect === 'paged' ? 'true' : 'false');
      seeded = await seed(testApp);
    });
    afterAll(async () => testApp.close());

    it('answers every call of that console in the shape it reads', async () => {
      expect(fixture.calls.length).toBeGreaterThan(40);
      expect(await runConsole(testApp, seeded, fixture)).toEqual([]);
    });
  });

  describe('in the other dialect', () => {
    let testApp: TestApp;
    let seeded: Seeded;

    beforeAll(async () => {
      testApp = await createTestApp(database);
      seeded = await seed(testApp);
    });
    afterAll(async () => testApp.close());

    it("would break each console's list screens, so the fixtures do check the shape", async () => {
      for (const fixture of fixtures) {
        await testApp.context.options.set('PagedListsEnabled', fixture.dialect === 'paged' ? 'false' : 'true');
        const lists = fixture.calls.filter(
          (call) => call.method === 'GET' && /^\/api\/(user|token|channel|redemption|mj|task)\/(\?|search\?|self\/?\?)/.test(call.url),
        );
        expect(lists.length).toBeGreaterThanOrEqual(12);
        for (const call of lists) expect(await checkCall(testApp, seeded, call), call.url).not.toEqual([]);
      }
    });
  });
});
