import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogType } from '@switchboard/contracts';
import { createTestApp, rootUser, type TestApp, type TestUser } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';

describe.each(testDatabases())('channel audit rows name their message for the console on $dialect', (database) => {
  let testApp: TestApp;
  let root: TestUser;

  const call = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) => {
    const answer = (await testApp.app.inject({ method, url, headers: root.headers, ...(payload === undefined ? {} : { payload }) })).json();
    expect(answer, `${method} ${url}`).toMatchObject({ success: true });
    return answer as { data: unknown };
  };
  const channel = (fields: Record<string, unknown> = {}) => ({ type: 1, name: 'audited', key: 'sk-audited', models: 'gpt-4o', group: 'default', ...fields });

  beforeAll(async () => {
    testApp = await createTestApp(database);
    root = await rootUser(testApp);
  });
  afterAll(async () => testApp.close());

  it("keeps new-api's Chinese content of every channel action and names the same message with its params in other", async () => {
    const [first, second] = (await call('POST', '/api/channel/', { mode: 'batch', channel: channel({ key: 'sk-a\nsk-b' }) })).data as number[];
    const { id: copy } = (await call('POST', `/api/channel/copy/${first}?suffix=-2`)).data as { id: number };
    await call('PUT', '/api/channel/', { ...channel({ key: 'sk-new', name: 'renamed' }), id: first });
    await call('PUT', '/api/channel/', { id: second, priority: 3 });
    await call('POST', `/api/channel/${first}/key`);
    await call('POST', '/api/channel/batch/tag', { ids: [first, second], tag: 'blue' });
    await call('PUT', '/api/channel/tag', { tag: 'blue', priority: 2 });
    await call('POST', '/api/channel/tag/disabled', { tag: 'blue' });
    await call('POST', '/api/channel/tag/enabled', { tag: 'blue' });
    await call('POST', '/api/channel/fix');
    await call('PUT', '/api/channel/', { id: copy, status: 2 });
    await call('DELETE', '/api/channel/disabled');
    await call('POST', '/api/channel/batch', { ids: [first, second] });

    const rows = await testApp.context.logDatabase.db
      .selectFrom('logs')
      .select(['content', 'other', 'user_id'])
      .where('type', '=', LogType.manage)
      .orderBy('id')
      .execute();
    expect(rows.every((row) => row.user_id === root.id)).toBe(true);
    expect(rows.map((row) => [row.content, JSON.parse(row.other ?? '{}')])).toEqual([
      [
        `管理员创建了 2 个渠道：audited（ID ${first}, ${second}）`,
        { content_key: 'log.channels_created', content_params: { count: 2, name: 'audited', ids: `${first}, ${second}` } },
      ],
      [`管理员复制了渠道 #${first}，新渠道 #${copy}`, { content_key: 'log.channel_copied', content_params: { id: first, copy_id: copy } }],
      [
        `管理员修改了渠道 #${first}：type, name, models, group（含密钥）`,
        { content_key: 'log.channel_updated_with_key', content_params: { id: first, fields: 'type, name, models, group' } },
      ],
      [`管理员修改了渠道 #${second}：priority`, { content_key: 'log.channel_updated', content_params: { id: second, fields: 'priority' } }],
      [
        `超级管理员 ${root.username} 查看了渠道 #${first}（renamed）的密钥`,
        { content_key: 'log.channel_key_viewed', content_params: { admin: root.username, id: first, name: 'renamed' } },
      ],
      ['管理员为 2 个渠道设置了标签 blue', { content_key: 'log.channels_tagged', content_params: { count: 2, tag: 'blue' } }],
      ['管理员编辑了标签渠道（标签 blue，2 个渠道）', { content_key: 'log.tag_channels_edited', content_params: { tag: 'blue', count: 2 } }],
      ['管理员禁用了标签渠道（标签 blue，2 个渠道）', { content_key: 'log.tag_channels_disabled', content_params: { tag: 'blue', count: 2 } }],
      ['管理员启用了标签渠道（标签 blue，2 个渠道）', { content_key: 'log.tag_channels_enabled', content_params: { tag: 'blue', count: 2 } }],
      ['管理员修复了渠道能力表，共 3 个渠道', { content_key: 'log.channel_abilities_repaired', content_params: { count: 3 } }],
      [`管理员修改了渠道 #${copy}：status`, { content_key: 'log.channel_updated', content_params: { id: copy, fields: 'status' } }],
      ['管理员删除了全部已禁用渠道，共 1 个', { content_key: 'log.disabled_channels_deleted', content_params: { count: 1 } }],
      [`管理员删除了 2 个渠道（ID ${first}, ${second}）`, { content_key: 'log.channels_deleted', content_params: { count: 2, ids: `${first}, ${second}` } }],
    ]);
    // The key itself is never written into an audit row.
    expect(rows.some((row) => `${row.content}${row.other}`.includes('sk-'))).toBe(false);
  });
});
