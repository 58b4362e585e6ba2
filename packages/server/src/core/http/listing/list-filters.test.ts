import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { safeParseJson } from '../../platform/safe-json.ts';
import { createTestApp, createTestUser, rootUser, sessionHeaders, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

/** Values a console sends in a number filter before it has one: new-api reads each as no filter. */
const unreadable = ['NaN', 'undefined', 'abc', '1.5', '1e308', '0x10', '99999999999999999999', '-'];
/** The number filters of the list routes (`channel` on the logs, `channel_id` on drawings and tasks). */
const numberFilters = ['type', 'start_timestamp', 'end_timestamp', 'channel', 'channel_id'];

/**
 * A list filter that cannot be read as a number is no filter, on every list (issue 37: new-api's
 * classic task page sends `end_timestamp=NaN` and was refused with a 400), in both list dialects;
 * a readable filter still filters, and the bodies of creates stay strict.
 */
describe.each(testDatabases())('unreadable list filters on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let member: TestUser;

  const get = async (as: TestUser, url: string) => {
    const response = await testApp.app.inject({ method: 'GET', url, headers: { ...as.headers, 'accept-language': 'en' } });
    const parsed = safeParseJson(response.body);
    // The export answers CSV: its text is the data.
    if (!parsed.ok) return { status: response.statusCode, success: response.statusCode === 200, message: undefined, data: response.body };
    const body = (typeof parsed.value === 'object' && parsed.value !== null ? parsed.value : {}) as { success?: unknown; message?: unknown; data?: unknown };
    return { status: response.statusCode, success: body.success, message: body.message, data: body.data };
  };
  const paged = (on: boolean) => testApp.context.options.set('PagedListsEnabled', on ? 'true' : 'false');
  const lists = () =>
    [
      [root, '/api/log/?p=1&page_size=10'],
      [root, '/api/log/stat?'],
      [member, '/api/log/self/?p=1&page_size=10'],
      [member, '/api/log/self/stat?'],
      [root, '/api/mj/?p=0&page_size=10'],
      [member, '/api/mj/self/?p=0&page_size=10'],
      [root, '/api/task/?p=0&page_size=10'],
      [member, '/api/task/self?p=0&page_size=10'],
      [root, '/api/data/?username='],
      [member, '/api/data/self/?'],
      [root, '/api/data/users?'],
      [root, '/api/data/channels?'],
      [root, '/api/export/logs?'],
    ] as const;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    member = await createTestUser(testApp, { username: 'filter_member' });
    const { db } = testApp.context.database;
    const common = { user_id: member.id, prompt: 'a cat', prompt_en: 'a cat', description: '', state: '', start_time: 0, finish_time: 0, image_url: '' };
    await db
      .insertInto('midjourneys')
      .values(
        [1_000_000, 2_000_000].map((submit_time, index) => ({
          ...common,
          code: 1,
          action: 'IMAGINE',
          mj_id: `mj-${index}`,
          submit_time,
          video_url: '',
          video_urls: '',
          status: 'SUCCESS',
          progress: '100%',
          fail_reason: '',
          channel_id: 1,
          quota: 1,
          buttons: '[]',
          properties: '{}',
        })),
      )
      .execute();
    await db
      .insertInto('tasks')
      .values(
        [1000, 2000].map((submit_time, index) => ({
          created_at: submit_time,
          updated_at: submit_time,
          task_id: `t-${index}`,
          platform: 'suno',
          user_id: member.id,
          group: 'default',
          channel_id: 1,
          quota: 1,
          action: 'MUSIC',
          status: 'SUCCESS',
          fail_reason: '',
          submit_time,
          start_time: submit_time,
          finish_time: submit_time,
          progress: '100%',
          properties: '{}',
          private_data: '{}',
          data: '[]',
        })),
      )
      .execute();
    await testApp.context.logWriter.record({ user_id: member.id, username: member.username, type: LogType.topup, content: 'seeded', quota: 10 });
  });
  afterAll(async () => testApp.close());

  it.each([false, true])('answers every list as unfiltered when a number filter cannot be read (paged lists %s)', async (on) => {
    await paged(on);
    const differing: string[] = [];
    for (const [as, url] of lists()) {
      const unfiltered = await get(as, url);
      expect(unfiltered, url).toMatchObject({ status: 200, success: true });
      for (const value of unreadable) {
        const query = numberFilters.map((name) => `&${name}=${encodeURIComponent(value)}`).join('');
        const answer = await get(as, `${url}${query}`);
        if (answer.status !== 200 || JSON.stringify(answer.data) !== JSON.stringify(unfiltered.data))
          differing.push(`${url}${query}: ${answer.status} ${String(answer.message)}`);
      }
    }
    expect(differing).toEqual([]);
  });

  it("loads the classic console's task page while its range is unset", async () => {
    await paged(false);
    const answer = await get(root, '/api/task/?p=0&page_size=10&channel_id=&task_id=&start_timestamp=NaN&end_timestamp=NaN');
    expect(answer).toMatchObject({ status: 200, success: true });
    expect(answer.data).toHaveLength(2);
  });

  it('still filters by a number it can read', async () => {
    await paged(false);
    expect((await get(root, '/api/task/?p=0&end_timestamp=1500')).data).toHaveLength(1);
    expect((await get(root, '/api/mj/?p=0&start_timestamp=1500000')).data).toHaveLength(1);
    expect((await get(root, '/api/log/?p=1&type=2')).data).toMatchObject({ total: 0 });
  });

  it('changes no GET route from a success to a refusal', async () => {
    const query = numberFilters.map((name) => `${name}=NaN`).join('&');
    const refused: string[] = [];
    for (const route of testApp.app.switchboard.routes.filter((candidate) => candidate.method === 'GET' && !candidate.url.includes(':'))) {
      // A fresh session each time, since one of these routes is the logout.
      const headers = { ...root, headers: await sessionHeaders(testApp, root.id) };
      const plain = await get(headers, route.url);
      const filtered = await get({ ...root, headers: await sessionHeaders(testApp, root.id) }, `${route.url}?${query}`);
      if (plain.status < 400 && filtered.status >= 400) refused.push(`${route.url}: ${filtered.status} ${String(filtered.message)}`);
    }
    expect(refused).toEqual([]);
  });

  it('keeps the bodies of creates strict', async () => {
    const response = await testApp.app.inject({
      method: 'POST',
      url: '/api/redemption/',
      headers: { ...root.headers, 'accept-language': 'en' },
      payload: { name: 'nan gift', quota: 'NaN', count: 1 },
    });
    expect({ status: response.statusCode, body: response.json() }).toEqual({ status: 400, body: { success: false, message: 'Invalid parameter: quota' } });
    expect(await testApp.context.database.db.selectFrom('redemptions').select('id').execute()).toEqual([]);
  });
});
