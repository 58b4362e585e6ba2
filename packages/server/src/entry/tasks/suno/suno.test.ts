import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerState, listenLocally, seedChannel, seedToken } from '../../relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callJson, pollUntil, refundLogs } from '../testing/task-test-kit.ts';
import { FakeSunoApi } from './testing/fake-suno-api.ts';

// ModelPrice defaults: suno_music 0.1, suno_lyrics 0.01; 500,000 quota per dollar; group ratio 1.
const musicQuota = 50_000;

describe.each(testDatabases())('a Suno client through Switchboard on $dialect', (database) => {
  let testApp: TestApp;
  let suno: FakeSunoApi;
  let baseUrl: string;
  let userId: number;
  let token: { id: number; apiKey: string };
  let channelId: number;
  const headers = () => ({ authorization: `Bearer ${token.apiKey}` });

  beforeAll(async () => {
    suno = new FakeSunoApi('suno-key');
    await suno.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    userId = (await createTestUser(testApp, { quota: 1_000_000 })).id;
    token = await seedToken(testApp, userId, { remainQuota: 400_000 });
    channelId = await seedChannel(testApp, { type: 36, key: 'suno-key', baseUrl: suno.baseUrl, models: ['suno_music', 'suno_lyrics'] });
  });
  afterAll(async () => {
    await testApp.close();
    await suno.stop();
  });

  it('submits music and fetches until complete, charged once at submit', async () => {
    const submit = await callJson(baseUrl, 'POST', '/suno/submit/music', headers(), {
      prompt: '[Verse]\nA cat in a spacesuit',
      tags: 'pop',
      title: 'Cat in Space',
    });
    expect(submit).toMatchObject({ status: 200, body: { code: 'success', message: '' } });
    const taskId = String(submit.body.data);
    expect(suno.requests.at(-1)).toMatchObject({ path: '/suno/submit/music', body: { mv: 'chirp-v3-0', title: 'Cat in Space' } });

    const progress: string[] = [];
    await pollUntil(testApp, async () => {
      const task = (await callJson(baseUrl, 'GET', `/suno/fetch/${taskId}`, headers())).body.data;
      progress.push(`${task.status} ${task.progress}`);
      return task.status === 'SUCCESS';
    });
    expect(progress).toContain('IN_PROGRESS 50%');
    const batch = await callJson(baseUrl, 'POST', '/suno/fetch', headers(), { ids: [taskId], action: 'MUSIC' });
    expect(batch.body).toMatchObject({ code: 'success', data: [{ task_id: taskId, action: 'MUSIC', status: 'SUCCESS', progress: '100%' }] });
    expect(batch.body.data[0].data[0]).toMatchObject({ status: 'complete', audio_url: expect.stringContaining('.mp3') });

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(state.user).toMatchObject({ quota: 1_000_000 - musicQuota, used_quota: musicQuota, request_count: 1 });
    expect(state.token).toMatchObject({ remain_quota: 400_000 - musicQuota, used_quota: musicQuota });
    expect(state.logs.map((log) => [log.model_name, log.quota, log.channel_id])).toEqual([['suno_music', musicQuota, channelId]]);
    expect(state.logs[0]?.content).toBe(`操作 MUSIC，ID ${taskId}`);
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({
      content_key: 'log.task_submitted',
      content_params: { action: 'MUSIC', task_id: taskId },
      request_path: '/suno/submit/music',
    });
    const row = await testApp.context.database.db.selectFrom('tasks').selectAll().where('task_id', '=', taskId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ platform: 'suno', action: 'MUSIC', status: 'SUCCESS', group: 'default' });
    expect(Number(row.quota)).toBe(musicQuota);
  });

  it('refunds a failed song to the user and the token exactly once, with a refund log row', async () => {
    const before = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const submit = await callJson(baseUrl, 'POST', '/suno/submit/music', headers(), { gpt_description_prompt: 'a song that will fail' });
    const taskId = String(submit.body.data);
    expect((await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] })).user.quota).toBe(before.user.quota - musicQuota);
    await pollUntil(testApp, async () => (await callJson(baseUrl, 'GET', `/suno/fetch/${taskId}`, headers())).body.data.status === 'FAILURE');
    await pollUntil(testApp, async () => true);
    const after = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(after.user).toMatchObject({ quota: before.user.quota, used_quota: before.user.used_quota });
    expect(after.token).toMatchObject({ remain_quota: before.token.remain_quota, used_quota: before.token.used_quota });
    expect(Number(after.channels[0]?.used_quota)).toBe(Number(before.channels[0]?.used_quota));
    const refunds = await refundLogs(testApp, userId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ quota: musicQuota, model_name: 'suno_music', token_id: token.id, channel_id: channelId });
    expect((await callJson(baseUrl, 'GET', `/suno/fetch/${taskId}`, headers())).body.data.fail_reason).toContain('artist name');
  });

  it('refuses bad calls in the Suno shape, charges nothing for a refused submit, and hides other users’ tasks', async () => {
    const before = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(await callJson(baseUrl, 'POST', '/suno/submit/lyrics', headers(), { prompt: '' })).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', data: null },
    });
    expect(await callJson(baseUrl, 'POST', '/suno/submit/music', headers(), { prompt: 'banned words' })).toMatchObject({
      status: 400,
      body: { code: 'error', message: 'prompt contains banned words' },
    });
    expect(await callJson(baseUrl, 'POST', '/suno/submit/music', {}, { prompt: 'x' })).toMatchObject({ status: 401, body: { data: null } });
    const after = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(after.user.quota).toBe(before.user.quota);

    const mine = await testApp.context.database.db.selectFrom('tasks').select('task_id').where('user_id', '=', userId).executeTakeFirstOrThrow();
    const other = await createTestUser(testApp, { quota: 100_000 });
    const otherKey = { authorization: `Bearer ${(await seedToken(testApp, other.id)).apiKey}` };
    expect(await callJson(baseUrl, 'GET', `/suno/fetch/${mine.task_id}`, otherKey)).toMatchObject({ status: 404, body: { code: 'task_not_exist' } });
    expect((await callJson(baseUrl, 'POST', '/suno/fetch', otherKey, { ids: [mine.task_id] })).body).toMatchObject({ code: 'success', data: [] });
  });
});
