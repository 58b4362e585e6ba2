import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedChannel } from '../relay/testing/relay-seed.ts';
import { createTestApp, rootUser, type TestApp, type TestUser } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';

describe.each(testDatabases())('channel test of task channels on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(() => testApp.close());

  it.each([2, 5, 36])('says clearly, in both languages, that a type %i channel cannot be tested', async (type) => {
    const id = await seedChannel(testApp, { type, key: 'k', baseUrl: 'http://127.0.0.1:9', models: type === 36 ? ['suno_music'] : ['mj_imagine'] });
    for (const [language, text] of [
      ['zh', '任务渠道无法测试'],
      ['en', 'task channels cannot be tested'],
    ] as const) {
      const response = await testApp.app.inject({ method: 'GET', url: `/api/channel/test/${id}`, headers: { ...root.headers, 'accept-language': language } });
      expect(response.json()).toMatchObject({ success: false, message: expect.stringContaining(text) });
    }
    const row = await testApp.context.database.db.selectFrom('channels').select(['status', 'test_time']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 1, test_time: 0 });
  });
});
