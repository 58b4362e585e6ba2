import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

describe.each(testDatabases())('drawing and task lists on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;
  let alice: TestUser;

  const get = (as: TestUser, url: string) => testApp.app.inject({ method: 'GET', url, headers: as.headers }).then((response) => response.json());
  const drawing = (userId: number, fields: Record<string, unknown>) => ({
    code: 1,
    user_id: userId,
    action: 'IMAGINE',
    mj_id: 'mj-1',
    prompt: 'a cat',
    prompt_en: 'a cat',
    description: '',
    state: '',
    submit_time: 1000,
    start_time: 1001,
    finish_time: 1050,
    image_url: 'http://mj-proxy.internal/img.png',
    video_url: '',
    video_urls: '',
    status: 'SUCCESS',
    progress: '100%',
    fail_reason: '',
    channel_id: 3,
    quota: 50000,
    buttons: '[]',
    properties: '{}',
    ...fields,
  });
  const task = (userId: number, fields: Record<string, unknown>) => ({
    created_at: 1000,
    updated_at: 1000,
    task_id: 't-1',
    platform: 'suno',
    user_id: userId,
    group: 'default',
    channel_id: 4,
    quota: 1000,
    action: 'MUSIC',
    status: 'SUCCESS',
    fail_reason: '',
    submit_time: 1000,
    start_time: 1001,
    finish_time: 1100,
    progress: '100%',
    properties: '{}',
    private_data: '{"key":"upstream-secret"}',
    data: '[]',
    ...fields,
  });

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
    alice = await createTestUser(testApp);
    const db = testApp.context.database.db;
    await db
      .insertInto('midjourneys')
      .values([
        drawing(alice.id, {}),
        drawing(alice.id, { mj_id: 'mj-2', submit_time: 2000, channel_id: 5 }),
        drawing(root.id, { mj_id: 'mj-3', submit_time: 3000 }),
      ])
      .execute();
    await db
      .insertInto('tasks')
      .values([task(alice.id, {}), task(alice.id, { task_id: 't-2', submit_time: 2000, channel_id: 6 }), task(root.id, { task_id: 't-3', submit_time: 3000 })])
      .execute();
    await testApp.context.options.set('ServerAddress', 'https://console.example');
    await testApp.context.options.set('PagedListsEnabled', 'true');
  });
  afterAll(async () => testApp.close());

  it('answers bare arrays paged from 0 in the classic dialect, as that console reads them', async () => {
    await testApp.context.options.set('PagedListsEnabled', 'false');
    try {
      const ids = async (user: TestUser, url: string, field: 'mj_id' | 'task_id') =>
        ((await get(user, url)).data as Array<Record<string, string>>).map((item) => item[field]);
      expect(await ids(root, '/api/mj/?p=0&page_size=2', 'mj_id')).toEqual(['mj-3', 'mj-2']);
      expect(await ids(root, '/api/mj/?p=1&page_size=2', 'mj_id')).toEqual(['mj-1']);
      expect(await ids(alice, '/api/mj/self/?p=0', 'mj_id')).toEqual(['mj-2', 'mj-1']);
      expect(await ids(root, '/api/task/?p=0&page_size=2', 'task_id')).toEqual(['t-3', 't-2']);
      expect(await ids(alice, '/api/task/self?p=0', 'task_id')).toEqual(['t-2', 't-1']);
    } finally {
      await testApp.context.options.set('PagedListsEnabled', 'true');
    }
  });

  it('lists every drawing for administrators with filters, pages from 1, forwarding image URLs', async () => {
    const all = await get(root, '/api/mj/?p=1&page_size=2');
    expect(all.data).toMatchObject({ total: 3, page: 1, page_size: 2 });
    expect(all.data.items.map((item: { mj_id: string }) => item.mj_id)).toEqual(['mj-3', 'mj-2']);
    expect(all.data.items[0].image_url).toBe('https://console.example/mj/image/mj-3');
    expect((await get(root, '/api/mj/?channel_id=5')).data.items.map((item: { mj_id: string }) => item.mj_id)).toEqual(['mj-2']);
    expect((await get(root, '/api/mj/?mj_id=mj-1')).data.total).toBe(1);
    expect((await get(root, '/api/mj/?start_timestamp=1500&end_timestamp=2500')).data.items.map((item: { mj_id: string }) => item.mj_id)).toEqual(['mj-2']);
    await testApp.context.options.set('MjForwardUrlEnabled', 'false');
    expect((await get(root, '/api/mj/?mj_id=mj-1')).data.items[0].image_url).toBe('http://mj-proxy.internal/img.png');
    await testApp.context.options.set('MjForwardUrlEnabled', 'true');
  });

  it('lists only the caller drawings on /api/mj/self/, ignoring channel_id', async () => {
    const mine = await get(alice, '/api/mj/self/?channel_id=5');
    expect(mine.data.items.map((item: { mj_id: string }) => item.mj_id)).toEqual(['mj-2', 'mj-1']);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/mj/', headers: alice.headers })).statusCode).toBe(403);
  });

  it('lists async tasks without their private data', async () => {
    const all = await get(root, '/api/task/?p=1');
    expect(all.data.total).toBe(3);
    expect(all.data.items.every((item: Record<string, unknown>) => !('private_data' in item))).toBe(true);
    expect((await get(root, '/api/task/?task_id=t-2')).data.items[0]).toMatchObject({ task_id: 't-2', channel_id: 6, platform: 'suno', action: 'MUSIC' });
    expect((await get(root, '/api/task/?channel_id=6&start_timestamp=1500')).data.total).toBe(1);
    const mine = await get(alice, '/api/task/self?channel_id=6');
    expect(mine.data.items.map((item: { task_id: string }) => item.task_id)).toEqual(['t-2', 't-1']);
    expect((await testApp.app.inject({ method: 'GET', url: '/api/task/', headers: alice.headers })).statusCode).toBe(403);
  });
});
