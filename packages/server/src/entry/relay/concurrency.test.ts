import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../core/platform/database.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from './testing/relay-seed.ts';

const simultaneous = 500;
const tokenQuota = 10_000;
// Ratio 1 and completion ratio 1: the hold is (500-token floor + max_tokens 50) = 550, the cost 480 + 50 = 530.
const hold = 550;
const cost = 530;

describe.each(testDatabases())('500 simultaneous requests on a limited token on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: 480, completion: 50 };
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'busy-model': 1 }));
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('never overspends by more than one hold and charges exactly what the logs say', async () => {
    const userQuota = 1_000_000;
    const userId = (await createTestUser(testApp, { quota: userQuota })).id;
    const token = await seedToken(testApp, userId, { remainQuota: tokenQuota });
    const channelId = await seedChannel(testApp, { key: 'busy-upstream', baseUrl: fake.baseUrl, models: ['busy-model'] });
    const body = JSON.stringify({ model: 'busy-model', max_tokens: 50, messages: [{ role: 'user', content: 'Hello' }] });
    const statuses = await Promise.all(
      Array.from({ length: simultaneous }, async () => {
        const response = await fetch(`${baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
          body,
        });
        const answer = (await response.json()) as { error?: { code: string } };
        return response.status === 200 ? 'ok' : `${response.status} ${answer.error?.code ?? ''}`;
      }),
    );
    const succeeded = statuses.filter((status) => status === 'ok').length;
    const refused = statuses.filter((status) => status !== 'ok');
    expect(succeeded).toBeGreaterThan(0);
    // Refusals are quota refusals (token exhausted or not enough left for the hold), nothing else.
    expect(refused.length).toBeGreaterThan(0);
    for (const status of refused) expect(['401 token_quota_exhausted', '403 pre_consume_token_quota_failed']).toContain(status);

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const charged = state.logs.reduce((sum, log) => sum + log.quota, 0);
    expect(state.logs).toHaveLength(succeeded);
    expect(charged).toBe(succeeded * cost);
    expect(charged).toBeLessThanOrEqual(tokenQuota + hold);
    expect(state.token.used_quota).toBe(charged);
    expect(state.token.remain_quota).toBe(tokenQuota - charged);
    expect(state.token.remain_quota).toBeGreaterThanOrEqual(-hold);
    expect(state.user.used_quota).toBe(charged);
    expect(state.user.quota).toBe(userQuota - charged);
    expect(state.user.request_count).toBe(succeeded);
    expect(state.channels[0]?.used_quota).toBe(charged);
    // Memory agrees with the database after the flush.
    expect(testApp.app.relay.tokens.getById(token.id)?.remainQuota).toBe(state.token.remain_quota);
  });
});

/**
 * Quota deltas and log rows are queued in memory and written in batches (every 500 ms and on
 * shutdown). These cases never call flush() themselves: they prove the writes happen on their own.
 */
describe.each(testDatabases())('queued charges reach the database on their own on $dialect', (database) => {
  let fake: FakeOpenAIUpstream;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: 480, completion: 50 };
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });

  /** A priced model, a funded user and token, and one channel on the fake. */
  async function seedCaller(testApp: TestApp) {
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'busy-model': 1 }));
    const userId = (await createTestUser(testApp, { quota: 1_000_000 })).id;
    const token = await seedToken(testApp, userId, { remainQuota: tokenQuota });
    await seedChannel(testApp, { key: 'flush-upstream', baseUrl: fake.baseUrl, models: ['busy-model'] });
    const ask = () =>
      testApp.app.inject({
        method: 'POST',
        url: '/v1/chat/completions',
        headers: { authorization: `Bearer ${token.apiKey}` },
        payload: { model: 'busy-model', max_tokens: 50, messages: [{ role: 'user', content: 'Hello' }] },
      });
    return { userId, token, ask };
  }

  /** The consume logs and the charged columns, read from the given connections. */
  async function written(main: TestApp['context']['database'], logs: TestApp['context']['logDatabase'], ids: { tokenId: number; userId: number }) {
    const rows = await logs.db.selectFrom('logs').select(['quota']).where('token_id', '=', ids.tokenId).where('type', '=', 2).execute();
    const token = await main.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', ids.tokenId).executeTakeFirstOrThrow();
    const user = await main.db.selectFrom('users').select(['used_quota']).where('id', '=', ids.userId).executeTakeFirstOrThrow();
    return { rows, token, user };
  }

  it('writes the log row and the charge by the periodic flush, without a close', async () => {
    const testApp = await createTestApp(database);
    try {
      const { userId, token, ask } = await seedCaller(testApp);
      expect((await ask()).statusCode).toBe(200);
      const state = await vi.waitFor(
        async () => {
          const current = await written(testApp.context.database, testApp.context.logDatabase, { tokenId: token.id, userId });
          if (current.rows.length === 0 || current.token.used_quota === 0) throw new Error('not written yet');
          return current;
        },
        // The flusher runs every 0.5 s; the margin is for a loaded CI machine (three test files at once on two cores).
        { timeout: 5000, interval: 25 },
      );
      expect(state.rows.map((row) => row.quota)).toEqual([cost]);
      expect(state.token).toEqual({ remain_quota: tokenQuota - cost, used_quota: cost });
      expect(state.user.used_quota).toBe(cost);
    } finally {
      await testApp.close();
    }
  });

  it('writes what was still queued when the app closed (read on a fresh connection)', async () => {
    const testApp = await createTestApp(database);
    try {
      const { userId, token, ask } = await seedCaller(testApp);
      // Hold the periodic flush so the answer is certainly still queued when the app closes.
      const periodicFlush = vi.spyOn(testApp.app.relay.flusher, 'flush').mockResolvedValue(undefined);
      expect((await ask()).statusCode).toBe(200);
      expect(testApp.app.relay.ledger.hasUnwritten).toBe(true);
      periodicFlush.mockRestore();
      await testApp.app.close();

      const main = await openDatabase(testApp.config.sqlDsn, testApp.config.sqlitePath);
      const logs = testApp.config.logSqlDsn ? await openDatabase(testApp.config.logSqlDsn, testApp.config.sqlitePath, 'LOG_SQL_DSN') : main;
      try {
        const state = await written(main, logs, { tokenId: token.id, userId });
        expect(state.rows.map((row) => row.quota)).toEqual([cost]);
        expect(state.token).toEqual({ remain_quota: tokenQuota - cost, used_quota: cost });
        expect(state.user.used_quota).toBe(cost);
      } finally {
        if (logs !== main) await logs.close();
        await main.close();
      }
    } finally {
      await testApp.close();
    }
  });
});
