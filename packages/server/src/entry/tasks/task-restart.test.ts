import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../core/config/config.ts';
import type { Clock } from '../../core/platform/clock.ts';
import { createLogger } from '../../core/platform/logger.ts';
import { openDependencies } from '../../open-dependencies.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from '../relay/testing/relay-seed.ts';
import { createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeMidjourneyProxy } from './midjourney/testing/fake-midjourney-proxy.ts';
import { FakeSunoApi } from './suno/testing/fake-suno-api.ts';
import { taskPollerOf } from './task-module.ts';
import { callJson, pollUntil, refundLogs } from './testing/task-test-kit.ts';

/** A clock the test moves: the task timeout is checked without waiting a day. */
function movableClock(): Clock & { advance(ms: number): void } {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    unixSeconds: () => Math.floor((Date.now() + offset) / 1000),
    advance: (ms) => {
      offset += ms;
    },
  };
}

describe.each(testDatabases())('task relays across a restart on $dialect', (database) => {
  let created: Awaited<ReturnType<typeof database.create>>;
  const journal = mkdtempSync(join(tmpdir(), 'sb-task-journal-'));
  const proxy = new FakeMidjourneyProxy('proxy-secret');
  const suno = new FakeSunoApi('suno-key');
  const clock = movableClock();

  /** One Switchboard process on the shared database; `close` stops it the way a restart does (no drop). */
  async function startSwitchboard(): Promise<TestApp> {
    const config = loadConfig({
      SQL_DSN: created.sqlDsn,
      SQLITE_PATH: created.sqlitePath,
      SESSION_SECRET: 'test-session-secret',
      LOG_LEVEL: 'silent',
      QUOTA_JOURNAL_DIR: journal,
      TASK_TIMEOUT_MINUTES: '60',
    });
    const dependencies = await openDependencies(config, createLogger('silent'), clock);
    const app = await buildApp(dependencies);
    await app.ready();
    return {
      app,
      context: app.switchboard.context,
      config,
      async close() {
        await app.close();
        await dependencies.close();
      },
    };
  }

  beforeAll(async () => {
    await proxy.start();
    await suno.start();
    created = await database.createMigrated();
  });
  afterAll(async () => {
    await created.drop();
    await proxy.stop();
    await suno.stop();
    rmSync(journal, { recursive: true, force: true });
  });

  it('finishes, charges and refunds unfinished tasks once after a restart, and times out the lost ones', async () => {
    const first = await startSwitchboard();
    const baseUrl = await listenLocally(first);
    const userId = (await createTestUser(first, { quota: 1_000_000 })).id;
    const token = await seedToken(first, userId, { remainQuota: 600_000 });
    const mjChannel = await seedChannel(first, { type: 5, key: 'proxy-secret', baseUrl: proxy.baseUrl, models: ['mj_imagine'] });
    const sunoChannel = await seedChannel(first, { type: 36, key: 'suno-key', baseUrl: suno.baseUrl, models: ['suno_music'] });
    const mj = { 'mj-api-secret': token.apiKey };
    const bearer = { authorization: `Bearer ${token.apiKey}` };
    const drawing = String((await callJson(baseUrl, 'POST', '/mj/submit/imagine', mj, { prompt: 'a lighthouse' })).body.result);
    const failing = String((await callJson(baseUrl, 'POST', '/mj/submit/imagine', mj, { prompt: 'a lighthouse that will fail' })).body.result);
    const song = String((await callJson(baseUrl, 'POST', '/suno/submit/music', bearer, { prompt: 'a sea shanty' })).body.data);
    const failingSong = String((await callJson(baseUrl, 'POST', '/suno/submit/music', bearer, { prompt: 'a shanty that will fail' })).body.data);
    // The proxy forgets this one: only the timeout can end it.
    const lost = String((await callJson(baseUrl, 'POST', '/mj/submit/imagine', mj, { prompt: 'a lost lighthouse' })).body.result);
    proxy.tasks.delete(lost);
    // Each instance polls under a lease: a second one on the same database is kept off while it is held.
    await taskPollerOf(first.app.relay).pollOnce();
    await first.close();

    const second = await startSwitchboard();
    const secondUrl = await listenLocally(second);
    await pollUntil(second, async () => {
      const rows = await second.context.database.db.selectFrom('midjourneys').select('status').where('mj_id', 'in', [drawing, failing]).execute();
      const tasks = await second.context.database.db.selectFrom('tasks').select('status').where('task_id', 'in', [song, failingSong]).execute();
      return [...rows, ...tasks].every((row) => row.status === 'SUCCESS' || row.status === 'FAILURE');
    });
    expect((await callJson(secondUrl, 'GET', `/mj/task/${drawing}/fetch`, mj)).body).toMatchObject({ status: 'SUCCESS' });
    expect((await callJson(secondUrl, 'GET', `/mj/task/${failing}/fetch`, mj)).body).toMatchObject({ status: 'FAILURE' });
    expect((await callJson(secondUrl, 'GET', `/suno/fetch/${song}`, bearer)).body.data).toMatchObject({ status: 'SUCCESS' });
    expect((await callJson(secondUrl, 'GET', `/suno/fetch/${failingSong}`, bearer)).body.data).toMatchObject({ status: 'FAILURE' });
    expect((await callJson(secondUrl, 'GET', `/mj/task/${lost}/fetch`, mj)).body).toMatchObject({ status: 'SUBMITTED' });

    clock.advance(61 * 60_000);
    await pollUntil(second, async () => true);
    expect((await callJson(secondUrl, 'GET', `/mj/task/${lost}/fetch`, mj)).body).toMatchObject({
      status: 'FAILURE',
      failReason: expect.stringContaining('timed out'),
    });
    await pollUntil(second, async () => true, 2);

    // Charged: 3 drawings × 50,000 and 2 songs × 50,000; refunded: 2 drawings (one failed, one timed out) and 1 song.
    const state = await ledgerState(second, { tokenId: token.id, userId, channelIds: [mjChannel, sunoChannel] });
    expect(state.logs).toHaveLength(5);
    const refunds = await refundLogs(second, userId);
    expect(refunds.map((row) => [row.model_name, row.quota]).sort()).toEqual([
      ['mj_imagine', 50_000],
      ['mj_imagine', 50_000],
      ['suno_music', 50_000],
    ]);
    expect(state.user).toMatchObject({ quota: 1_000_000 - 2 * 50_000, used_quota: 2 * 50_000, request_count: 5 });
    // Every refund returns to the token that paid as well as to the user.
    expect(state.token).toMatchObject({ remain_quota: 600_000 - 2 * 50_000, used_quota: 2 * 50_000 });
    await second.close();
  });

  it('lets one instance poll at a time when two share the database', async () => {
    const one = await startSwitchboard();
    const two = await startSwitchboard();
    try {
      const first = await taskPollerOf(one.app.relay).pollOnce();
      const second = await taskPollerOf(two.app.relay).pollOnce();
      expect([first, second]).toEqual([true, false]);
      expect(await taskPollerOf(one.app.relay).pollOnce()).toBe(true);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
