import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@switchboard/contracts';
import { ledgerState, listenLocally, seedChannel, seedToken } from '../../relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { callJson, pollUntil, refundLogs } from '../testing/task-test-kit.ts';
import { fakePng, FakeMidjourneyProxy } from './testing/fake-midjourney-proxy.ts';

// ModelPrice defaults: mj_imagine 0.1, mj_upscale 0.05; 500,000 quota per dollar; group ratio 1.
const imagineQuota = 50_000;
const upscaleQuota = 25_000;

describe.each(testDatabases())('a midjourney-proxy client through Switchboard on $dialect', (database) => {
  let testApp: TestApp;
  let proxy: FakeMidjourneyProxy;
  let baseUrl: string;
  let userId: number;
  let token: { id: number; key: string; apiKey: string };
  let plusChannel: number;
  const userQuota = 1_000_000;
  const tokenQuota = 500_000;
  const headers = () => ({ 'mj-api-secret': token.apiKey });

  beforeAll(async () => {
    proxy = new FakeMidjourneyProxy('proxy-secret');
    await proxy.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    userId = (await createTestUser(testApp, { quota: userQuota })).id;
    token = await seedToken(testApp, userId, { remainQuota: tokenQuota });
    plusChannel = await seedChannel(testApp, { type: 5, key: 'proxy-secret', baseUrl: proxy.baseUrl, models: ['mj_imagine', 'mj_upscale', 'mj_variation'] });
    // A plain proxy (type 2) serving a Plus-only action: the relay must refuse rather than send it.
    await seedChannel(testApp, { type: 2, key: 'proxy-secret', baseUrl: proxy.baseUrl, models: ['mj_shorten'] });
  });
  afterAll(async () => {
    await testApp.close();
    await proxy.stop();
  });

  it('imagines, polls until SUCCESS, upscales one image and fetches it, charging each action once', async () => {
    const imagine = await callJson(baseUrl, 'POST', '/mj-fast/mj/submit/imagine', headers(), {
      prompt: 'a cat in a spacesuit --fast',
      notifyHook: 'http://127.0.0.1:9/hook',
    });
    expect(imagine).toMatchObject({ status: 200, body: { code: 1, description: '提交成功' } });
    const imageId = String(imagine.body.result);
    // MjModeClearEnabled (default on): no mode prefix, no speed flag; MjNotifyEnabled (off): no callback.
    const sent = proxy.requests.find((request) => request.path.endsWith('/submit/imagine'));
    expect(sent).toMatchObject({ path: '/mj/submit/imagine', body: { prompt: 'a cat in a spacesuit' } });
    expect(sent?.headers['mj-api-secret']).toBe('proxy-secret');
    expect(sent?.body).not.toHaveProperty('notifyHook');

    const submitted = await callJson(baseUrl, 'GET', `/mj/task/${imageId}/fetch`, headers());
    expect(submitted.body).toMatchObject({ id: imageId, action: 'IMAGINE', status: 'SUBMITTED', progress: '0%', prompt: 'a cat in a spacesuit --fast' });

    const seen: string[] = [];
    await pollUntil(testApp, async () => {
      const task = (await callJson(baseUrl, 'GET', `/mj/task/${imageId}/fetch`, headers())).body;
      seen.push(`${task.status} ${task.progress}`);
      return task.status === 'SUCCESS';
    });
    expect(seen).toContain('IN_PROGRESS 50%');
    const done = (await callJson(baseUrl, 'GET', `/mj/task/${imageId}/fetch`, headers())).body;
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', failReason: '' });
    // MjForwardUrlEnabled (default on): the image comes through /mj/image/:id, never the proxy's host.
    expect(done.imageUrl).toMatch(new RegExp(`/mj/image/${imageId}$`));
    expect(done.imageUrl).not.toContain(proxy.baseUrl);
    expect(done.buttons).toHaveLength(4);
    // The image's address comes from the proxy: the outgoing-request policy refuses a local one until
    // the operator allows the proxy's network.
    const blocked = await fetch(`${baseUrl}/mj/image/${imageId}`);
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { error: string }).error).toMatch(/^request blocked: /);
    await testApp.context.options.set('fetch_setting.ip_filter_mode', 'true');
    await testApp.context.options.set('fetch_setting.ip_list', '["127.0.0.1"]');
    await testApp.context.options.set('fetch_setting.allowed_ports', '[]');
    const image = await fetch(`${baseUrl}/mj/image/${imageId}`);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer())).toEqual(fakePng);

    const upscale = await callJson(
      baseUrl,
      'POST',
      '/mj/submit/action',
      { authorization: `Bearer ${token.apiKey}` },
      { customId: done.buttons[0].customId, taskId: imageId },
    );
    expect(upscale.body).toMatchObject({ code: 1 });
    const upscaleId = String(upscale.body.result);
    await pollUntil(testApp, async () => (await callJson(baseUrl, 'GET', `/mj/task/${upscaleId}/fetch`, headers())).body.status === 'SUCCESS');
    const listed = await callJson(baseUrl, 'POST', '/mj/task/list-by-condition', headers(), { ids: [imageId, upscaleId] });
    expect(listed.body.map((task: { id: string; action: string; status: string }) => [task.id, task.action, task.status]).sort()).toEqual(
      [
        [imageId, 'IMAGINE', 'SUCCESS'],
        [upscaleId, 'UPSCALE', 'SUCCESS'],
      ].sort(),
    );

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [plusChannel] });
    expect(state.user).toMatchObject({ quota: userQuota - imagineQuota - upscaleQuota, used_quota: imagineQuota + upscaleQuota, request_count: 2 });
    expect(state.token).toMatchObject({ remain_quota: tokenQuota - imagineQuota - upscaleQuota, used_quota: imagineQuota + upscaleQuota });
    expect(Number(state.channels[0]?.used_quota)).toBe(imagineQuota + upscaleQuota);
    expect(state.logs.map((log) => [log.model_name, log.quota, log.channel_id])).toEqual([
      ['mj_imagine', imagineQuota, plusChannel],
      ['mj_upscale', upscaleQuota, plusChannel],
    ]);
    // new-api's Chinese note stays in content; the console reads the same figures by message key.
    expect(state.logs[0]?.content).toBe(`模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE，ID ${imageId}`);
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({
      content_key: 'log.drawing_submitted',
      content_params: { price: '0.10', group_ratio: '1.00', action: 'IMAGINE', mj_id: imageId },
    });
    expect(JSON.parse(state.logs[1]?.other ?? '{}')).toMatchObject({ model_price: 0.05, group_ratio: 1, request_path: '/mj/submit/action' });
    const rows = await testApp.context.database.db.selectFrom('midjourneys').selectAll().where('mj_id', 'in', [imageId, upscaleId]).orderBy('id').execute();
    expect(rows.map((row) => [row.action, Number(row.quota), row.status, row.progress])).toEqual([
      ['IMAGINE', imagineQuota, 'SUCCESS', '100%'],
      ['UPSCALE', upscaleQuota, 'SUCCESS', '100%'],
    ]);
  });

  it('refunds a drawing that fails, exactly once, with a refund log row', async () => {
    const before = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [plusChannel] });
    const imagine = await callJson(baseUrl, 'POST', '/mj/submit/imagine', headers(), { prompt: 'this one will fail' });
    expect(imagine.body).toMatchObject({ code: 1 });
    const id = String(imagine.body.result);
    const charged = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [plusChannel] });
    expect(charged.user.quota).toBe(before.user.quota - imagineQuota);

    await pollUntil(testApp, async () => (await callJson(baseUrl, 'GET', `/mj/task/${id}/fetch`, headers())).body.status === 'FAILURE');
    // More passes (or another instance) must not refund it again.
    await pollUntil(testApp, async () => true);
    const task = (await callJson(baseUrl, 'GET', `/mj/task/${id}/fetch`, headers())).body;
    expect(task.failReason).toContain('Unrecognized parameter');

    const after = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [plusChannel] });
    expect(after.user).toMatchObject({ quota: before.user.quota, used_quota: before.user.used_quota });
    // The token that paid gets it back too (midjourneys.token_id, a column new-api does not have).
    expect(after.token).toMatchObject({ remain_quota: before.token.remain_quota, used_quota: before.token.used_quota });
    expect(testApp.app.relay.tokens.get(token.key)?.remainQuota).toBe(after.token.remain_quota);
    expect(Number(after.channels[0]?.used_quota)).toBe(Number(before.channels[0]?.used_quota));
    const refunds = await refundLogs(testApp, userId);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]).toMatchObject({ quota: imagineQuota, model_name: 'mj_imagine', channel_id: plusChannel, type: 6 });
    expect(refunds[0]?.content).toContain(id);
    // The memory balance the relay admits by agrees with the database.
    expect(testApp.app.relay.users.get(userId)?.quota).toBe(after.user.quota);
  });

  it('charges nothing when the proxy refuses the prompt, and answers in its own shape', async () => {
    const before = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [plusChannel] });
    const banned = await callJson(baseUrl, 'POST', '/mj/submit/imagine', headers(), { prompt: 'a banned word' });
    expect(banned).toMatchObject({ status: 200, body: { code: 24, description: '可能包含敏感词' } });
    const after = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [plusChannel] });
    expect(after.user.quota).toBe(before.user.quota);
    expect(after.logs).toHaveLength(before.logs.length);
    const row = await testApp.context.database.db.selectFrom('midjourneys').selectAll().where('code', '=', 24).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'FAILURE', fail_reason: '可能包含敏感词' });
    expect(Number(row.quota)).toBe(0);
  });

  it('refuses bad calls in midjourney-proxy shape and never shows another user their tasks', async () => {
    expect(await callJson(baseUrl, 'POST', '/mj/submit/imagine', {}, { prompt: 'x' })).toMatchObject({ status: 401, body: { code: 4, result: null } });
    expect(await callJson(baseUrl, 'POST', '/mj/submit/imagine', headers(), { prompt: '' })).toMatchObject({
      status: 400,
      body: { code: 4, description: 'prompt_is_required' },
    });
    const shorten = await callJson(baseUrl, 'POST', '/mj/submit/shorten', headers(), { prompt: 'a long prompt' });
    expect(shorten.status).toBe(400);
    expect(shorten.body.description).toContain('Midjourney Proxy Plus');
    expect(proxy.requests.some((request) => request.path.endsWith('/shorten'))).toBe(false);

    const mine = await testApp.context.database.db
      .selectFrom('midjourneys')
      .select('mj_id')
      .where('user_id', '=', userId)
      .where('mj_id', '!=', '')
      .executeTakeFirstOrThrow();
    const other = await createTestUser(testApp, { quota: 100_000, role: Role.common });
    const otherToken = await seedToken(testApp, other.id);
    const stranger = { 'mj-api-secret': otherToken.apiKey };
    expect(await callJson(baseUrl, 'GET', `/mj/task/${mine.mj_id}/fetch`, stranger)).toMatchObject({
      status: 404,
      body: { code: 4, description: 'task_no_found' },
    });
    expect((await callJson(baseUrl, 'POST', '/mj/task/list-by-condition', stranger, { ids: [mine.mj_id] })).body).toEqual([]);
    expect(await callJson(baseUrl, 'POST', '/mj/submit/change', stranger, { action: 'UPSCALE', index: 1, taskId: mine.mj_id })).toMatchObject({
      status: 404,
      body: { code: 4, description: 'task_not_found' },
    });
    expect(await callJson(baseUrl, 'GET', `/mj/task/${mine.mj_id}/image-seed`, headers())).toMatchObject({
      status: 200,
      body: { code: 1, result: '2097418233' },
    });
  });
});
