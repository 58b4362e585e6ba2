import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultOutputLimit } from '../../domain/billing/output-limits.ts';
import type { ReserveResult } from '../../domain/billing/quota-ledger.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from './testing/relay-seed.ts';

const simultaneous = 500;
const model = 'edge-model';
// Ratio 1, completion ratio 1, no max_tokens: the prompt "Hello" is estimated at 2 tokens and the
// answer uses the model's whole output limit, so every answer costs exactly its worst case, far
// above the default 500-unit hold.
const promptTokens = 2;
const cost = promptTokens + defaultOutputLimit;
const cheapHold = 500;
/** Ten and a half answers: the edge falls inside a request. */
const remaining = Math.round(10.5 * cost);
const plenty = 100_000_000;
const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] });
/** A model whose answers use a small part of their output limit. */
const smallAnswerModel = 'edge-model-small-answers';

interface Burst {
  /** What the ledger answered, in order. */
  readonly reservations: ReserveResult[];
  /** Counts a request answered with an error (refused by the ledger or before it). */
  refused(): void;
}

async function burst(baseUrl: string, apiKey: string, gate: Burst, requestBody = body): Promise<string[]> {
  return Promise.all(
    Array.from({ length: simultaneous }, async () => {
      const response = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: requestBody,
      });
      const answer = (await response.json()) as { error?: { code: string } };
      if (response.status !== 200) gate.refused();
      return response.status === 200 ? 'ok' : `${response.status} ${answer.error?.code ?? ''}`;
    }),
  );
}

/**
 * Holds every upstream answer until each request of the burst is either admitted by the ledger or
 * answered with a refusal, so the admitted ones are all in flight together whatever the machine's
 * speed.
 */
function allInFlightTogether(testApp: TestApp, fake: FakeOpenAIUpstream): Burst {
  const { ledger } = testApp.app.relay;
  const reservations: ReserveResult[] = [];
  let decided = 0;
  let release: () => void = () => undefined;
  const everyoneDecided = new Promise<void>((resolve) => (release = resolve));
  const count = () => {
    decided += 1;
    if (decided === simultaneous) release();
  };
  const reserve = ledger.reserve.bind(ledger);
  const decide = (result: ReserveResult) => {
    reservations.push(result);
    if (result.ok) count();
    return result;
  };
  vi.spyOn(ledger, 'reserve').mockImplementation((...args) => {
    const result = reserve(...args);
    return result instanceof Promise ? result.then(decide) : decide(result);
  });
  fake.beforeAnswer = () => everyoneDecided;
  return { reservations, refused: count };
}

describe.each(testDatabases())('500 simultaneous requests at the edge of a balance on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    fake.usage = { prompt: promptTokens, completion: defaultOutputLimit };
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, [model]: 1, [smallAnswerModel]: 1 }));
    await seedChannel(testApp, { key: 'edge-upstream', baseUrl: fake.baseUrl, models: [model, smallAnswerModel] });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    fake.beforeAnswer = undefined;
    await testApp.context.options.set('PreConsumedQuota', '500');
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  /** Runs the burst and checks what every edge case shares: exact charges, nothing left held or claimed. */
  async function burstAtTheEdge(seed: { userQuota: number; tokenQuota: number; unlimited: boolean }, refusals: string[]) {
    const userId = (await createTestUser(testApp, { quota: seed.userQuota })).id;
    const token = await seedToken(testApp, userId, { remainQuota: seed.tokenQuota, unlimited: seed.unlimited });
    const gate = allInFlightTogether(testApp, fake);
    const statuses = await burst(baseUrl, token.apiKey, gate);
    const succeeded = statuses.filter((status) => status === 'ok').length;
    // Each admitted request claimed its whole cost on the edge balance, but the last, which took the rest of the room.
    const edgeKey = seed.unlimited || seed.tokenQuota === plenty ? 'u:' : 't:';
    const claims = gate.reservations.flatMap((result) =>
      result.ok ? result.reservation.claims.filter((claim) => claim.key.startsWith(edgeKey)).map((claim) => claim.amount) : [],
    );
    expect(claims).toHaveLength(succeeded);
    expect(claims.filter((amount) => amount !== cost).length).toBeLessThanOrEqual(1);
    for (const status of statuses.filter((each) => each !== 'ok')) expect(refusals).toContain(status);

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [] });
    const charged = state.logs.reduce((sum, log) => sum + log.quota, 0);
    expect(state.logs).toHaveLength(succeeded);
    expect(charged).toBe(succeeded * cost);
    // Every answer the balance could pay for got through; at most one went beyond it.
    expect(succeeded).toBeGreaterThanOrEqual(Math.floor(remaining / cost));
    expect(charged).toBeLessThanOrEqual(remaining + cost);
    expect(state.user.quota).toBe(seed.userQuota - charged);
    expect(state.token.remain_quota).toBe(seed.tokenQuota - charged);
    const memoryToken = testApp.app.relay.tokens.getById(token.id);
    const memoryUser = testApp.app.relay.users.get(userId);
    expect([memoryToken?.remainQuota, memoryUser?.quota]).toEqual([state.token.remain_quota, state.user.quota]);
    // No claim is left in flight on either balance.
    const { guard } = testApp.app.relay.ledger;
    expect([guard.inFlight(`t:${token.id}`), guard.inFlight(`u:${userId}`)]).toEqual([0, 0]);
  }

  const tokenRefusals = ['401 token_quota_exhausted', '403 pre_consume_token_quota_failed'];

  it('spends at most one answer beyond the token remaining quota with the default hold', async () => {
    await burstAtTheEdge({ userQuota: plenty, tokenQuota: remaining, unlimited: false }, tokenRefusals);
  });

  it('spends at most one answer beyond the token remaining quota with PreConsumedQuota 0', async () => {
    await testApp.context.options.set('PreConsumedQuota', '0');
    await burstAtTheEdge({ userQuota: plenty, tokenQuota: remaining, unlimited: false }, tokenRefusals);
  });

  it('spends at most one answer beyond the user balance when the token is unlimited', async () => {
    await burstAtTheEdge({ userQuota: remaining, tokenQuota: 0, unlimited: true }, ['403 insufficient_user_quota']);
  });

  it('spends at most one answer beyond the user balance when the user, not the token, is the edge', async () => {
    await burstAtTheEdge({ userQuota: remaining, tokenQuota: plenty, unlimited: false }, ['403 insufficient_user_quota']);
  });

  it('holds only the cheap amount while the balance is far from the edge', async () => {
    const userId = (await createTestUser(testApp, { quota: plenty })).id;
    const token = await seedToken(testApp, userId, { remainQuota: plenty });
    const gate = allInFlightTogether(testApp, fake);
    const statuses = await burst(baseUrl, token.apiKey, gate);
    expect(statuses.every((status) => status === 'ok')).toBe(true);
    const holds = gate.reservations.map((result) => result.ok && result.reservation.amount);
    expect(holds).toEqual(Array.from({ length: simultaneous }, () => cheapHold));
    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [] });
    expect(state.logs.reduce((sum, log) => sum + log.quota, 0)).toBe(simultaneous * cost);
  });

  it('admits as many requests as the balance can pay for at their expected cost when answers cost less than their worst case', async () => {
    // Answers of 998 completion tokens: far below the model's 16K output limit, the worst case.
    fake.usage = { prompt: promptTokens, completion: 998 };
    const actual = promptTokens + 998;
    const smallBody = JSON.stringify({ model: smallAnswerModel, messages: [{ role: 'user', content: 'Hello' }] });
    try {
      // The gateway learns what this model's answers cost.
      const warmUser = (await createTestUser(testApp, { quota: plenty })).id;
      const warmToken = await seedToken(testApp, warmUser, { remainQuota: plenty });
      for (let call = 0; call < 3; call += 1) {
        const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${warmToken.apiKey}`, 'content-type': 'application/json' },
          body: smallBody,
        });
        expect(answer.status).toBe(200);
      }
      const edge = Math.round(10.5 * actual);
      const userId = (await createTestUser(testApp, { quota: plenty })).id;
      const token = await seedToken(testApp, userId, { remainQuota: edge });
      const gate = allInFlightTogether(testApp, fake);
      const statuses = await burst(baseUrl, token.apiKey, gate, smallBody);
      const succeeded = statuses.filter((status) => status === 'ok').length;
      const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [] });
      const charged = state.logs.reduce((sum, log) => sum + log.quota, 0);
      // The ten answers that fit are all served (claiming the worst case would have admitted none); the half
      // answer left is less than one request, held back while the ten were in flight.
      expect(succeeded).toBe(10);
      expect(charged).toBe(succeeded * actual);
      expect(edge - charged).toBeLessThan(actual);
      expect(state.token.remain_quota).toBe(edge - charged);
    } finally {
      fake.usage = { prompt: promptTokens, completion: defaultOutputLimit };
    }
  });
});
