import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenStatus } from '@switchboard/contracts';
import { changeTopics } from '../../../core/platform/change-topics.ts';
import { createTestApp, createTestUser, type TestApp } from '../../../testing/test-app.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from '../testing/relay-seed.ts';

const engines = testDatabases().filter((database) => database.dialect === 'sqlite' || database.dialect === 'postgres');
const tokenQuota = 1_000_000;
const userQuota = 5_000_000;

/**
 * Caches of one token and one user, so every call with another token evicts the last one: what an
 * evicted token or user was charged must reach the database exactly once, and reading it again must
 * give its balance exactly, with charges still queued and with requests still in flight.
 */
describe.each(engines)('token and user caches of one entry on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database, { TOKEN_CACHE_SIZE: '1', USER_CACHE_SIZE: '1' });
    baseUrl = await listenLocally(testApp);
    await seedChannel(testApp, { key: 'eviction-upstream', baseUrl: fake.baseUrl, models: ['gpt-4o'] });
    // Charges stay queued until a test flushes them: evictions then meet unwritten charges for sure.
    await testApp.app.relay.flusher.stop();
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  const chat = async (apiKey: string) =>
    (
      await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
      })
    ).status;

  async function twoCallers() {
    const first = await createTestUser(testApp, { quota: userQuota });
    const second = await createTestUser(testApp, { quota: userQuota });
    return {
      first,
      second,
      tokenA: await seedToken(testApp, first.id, { remainQuota: tokenQuota }),
      tokenB: await seedToken(testApp, second.id, { remainQuota: tokenQuota }),
    };
  }

  it('loses nothing and counts nothing twice when a token and user with unwritten charges are evicted', async () => {
    const { tokens, users, ledger } = testApp.app.relay;
    const { first, tokenA, tokenB } = await twoCallers();
    expect(await chat(tokenA.apiKey)).toBe(200);
    expect(await chat(tokenA.apiKey)).toBe(200);
    const charged = tokenQuota - (tokens.getById(tokenA.id)?.remainQuota ?? tokenQuota);
    expect(charged).toBeGreaterThan(0);
    expect(ledger.unwrittenToken(tokenA.id).used).toBe(charged);

    // B's call evicts A and its user while their charges are queued.
    expect(await chat(tokenB.apiKey)).toBe(200);
    expect(tokens.getById(tokenA.id)).toBeUndefined();
    expect(users.get(first.id)).toBeUndefined();
    // Read again before the flush: the stored row plus what is queued.
    expect((await tokens.lookup(tokenA.key))?.remainQuota).toBe(tokenQuota - charged);
    expect((await users.lookup(first.id))?.quota).toBe(userQuota - charged);

    expect(await chat(tokenB.apiKey)).toBe(200);
    const state = await ledgerState(testApp, { tokenId: tokenA.id, userId: first.id, channelIds: [] });
    expect(state.logs).toHaveLength(2);
    expect(state.logs.reduce((sum, log) => sum + log.quota, 0)).toBe(charged);
    expect(state.token.remain_quota).toBe(tokenQuota - charged);
    expect(state.token.used_quota).toBe(charged);
    expect(state.user.quota).toBe(userQuota - charged);
    expect(state.user.used_quota).toBe(charged);
    expect(state.user.request_count).toBe(2);
    // Read again after the flush: the stored row alone, nothing counted twice.
    expect((await tokens.lookup(tokenA.key))?.remainQuota).toBe(tokenQuota - charged);
    expect((await users.lookup(first.id))?.quota).toBe(userQuota - charged);
  });

  it('keeps the balance of a request in flight exact when its token and user are evicted and read again', async () => {
    const { tokens, users } = testApp.app.relay;
    const { first, tokenA, tokenB } = await twoCallers();
    let arrived = () => undefined as void;
    const upstreamReached = new Promise<void>((resolve) => (arrived = resolve));
    let answer = () => undefined as void;
    const answerReleased = new Promise<void>((resolve) => (answer = resolve));
    let held = false;
    fake.beforeAnswer = () => {
      if (held) return Promise.resolve();
      held = true;
      arrived();
      return answerReleased;
    };
    try {
      const inFlight = chat(tokenA.apiKey);
      await upstreamReached;
      const heldToken = tokens.getById(tokenA.id);
      const heldUser = users.get(first.id);
      expect(heldToken?.remainQuota).toBeLessThan(tokenQuota);

      expect(await chat(tokenB.apiKey)).toBe(200);
      expect(tokens.getById(tokenA.id)).toBeUndefined();
      // Read again while the request holds the records: the very same objects come back.
      expect(await tokens.lookup(tokenA.key)).toBe(heldToken);
      expect(await users.lookup(first.id)).toBe(heldUser);

      answer();
      expect(await inFlight).toBe(200);
      const state = await ledgerState(testApp, { tokenId: tokenA.id, userId: first.id, channelIds: [] });
      const charged = state.logs.reduce((sum, log) => sum + log.quota, 0);
      expect(state.logs).toHaveLength(1);
      expect(state.token.remain_quota).toBe(tokenQuota - charged);
      expect(state.user.quota).toBe(userQuota - charged);
      // The records in memory moved with the settlement: the hold went back, the charge came off.
      expect(tokens.getById(tokenA.id)?.remainQuota).toBe(tokenQuota - charged);
      expect(users.get(first.id)?.quota).toBe(userQuota - charged);

      // Evicted while nothing holds them, then read afresh: the same balances.
      expect(await chat(tokenB.apiKey)).toBe(200);
      expect(tokens.getById(tokenA.id)).toBeUndefined();
      await testApp.app.relay.flusher.flush();
      expect((await tokens.lookup(tokenA.key))?.remainQuota).toBe(tokenQuota - charged);
      expect((await users.lookup(first.id))?.quota).toBe(userQuota - charged);
    } finally {
      fake.beforeAnswer = undefined;
    }
  });

  it('brings a console change to a held token at once and to one not held at its next use', async () => {
    const { tokens } = testApp.app.relay;
    const { tokenA, tokenB } = await twoCallers();
    expect(await chat(tokenA.apiKey)).toBe(200);
    expect(await chat(tokenB.apiKey)).toBe(200);
    expect(tokens.getById(tokenA.id)).toBeUndefined();
    const disable = async (id: number) => {
      await testApp.context.database.db.updateTable('tokens').set({ status: TokenStatus.disabled }).where('id', '=', id).execute();
      await testApp.context.bus.publish(changeTopics.tokens, String(id));
    };

    await disable(tokenB.id);
    expect(tokens.getById(tokenB.id)?.status).toBe(TokenStatus.disabled);
    await disable(tokenA.id);
    // Not read for nothing: it is read at its next use.
    expect(tokens.getById(tokenA.id)).toBeUndefined();
    expect(await chat(tokenA.apiKey)).toBe(401);
    expect(tokens.getById(tokenA.id)?.status).toBe(TokenStatus.disabled);
    expect(await chat(tokenB.apiKey)).toBe(401);
  });
});
