import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { countTextTokens } from './pipeline/token-estimate.ts';
import { FakeOpenAIUpstream, type FakeMode } from './testing/fake-openai-upstream.ts';
import { expectChargedOnce } from './testing/charged-once.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from './testing/relay-seed.ts';

describe.each(testDatabases())('a caller who leaves on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('aborts the upstream and is charged for the tokens it produced: not zero, not the hold', async () => {
    const userId = (await createTestUser(testApp, { quota: 10_000_000 })).id;
    const token = await seedToken(testApp, userId, { remainQuota: 1_000_000 });
    fake.abortedRequests = 0;
    fake.behave('slow-upstream', 'hang-after');
    const channelId = await seedChannel(testApp, { key: 'slow-upstream', baseUrl: fake.baseUrl, models: ['gpt-4o'] });

    const controller = new AbortController();
    const response = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', max_tokens: 1000, stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] }),
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = '';
    while (!received.includes('"content":" the"')) {
      const { value } = await reader.read();
      received += new TextDecoder().decode(value);
    }
    controller.abort();
    await fake.waitForAbort();

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(state.logs).toHaveLength(1);
    const log = state.logs[0];
    // "Hello from the": three tokens reached the caller; the prompt is counted locally.
    expect(log?.completion_tokens).toBe(3);
    const promptTokens = log?.prompt_tokens ?? 0;
    expect(promptTokens).toBeGreaterThan(0);
    // gpt-4o: ratio 1.25, completion ratio 4
    expect(log?.quota).toBe(Math.round((promptTokens + 3 * 4) * 1.25));
    const holdAmount = Math.round((500 + 1000 * 4) * 1.25);
    expect(log?.quota).toBeGreaterThan(0);
    expect(log?.quota).toBeLessThan(holdAmount);
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ stream_status: 'client_gone', admin_info: { local_count_tokens: true } });
    expect(state.token.used_quota).toBe(log?.quota);
    expect(state.token.remain_quota).toBe(1_000_000 - (log?.quota ?? 0));
  });

  /** Sends a request and hangs up once the fake upstream has received it. */
  async function leaveWhileUpstreamThinks(key: string, apiKey: string, body: Record<string, unknown>): Promise<void> {
    const controller = new AbortController();
    const sent = fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await expect.poll(() => fake.requestsFor(key).length).toBe(1);
    controller.abort();
    await sent;
  }

  /** A channel only this case uses, a funded token, and the state of their charges once logged. */
  async function setUpLeaving(key: string, mode: FakeMode, model: string, priority: number) {
    const userId = (await createTestUser(testApp, { quota: 10_000_000 })).id;
    const token = await seedToken(testApp, userId, { remainQuota: 1_000_000 });
    fake.abortedRequests = 0;
    fake.behave(key, mode);
    const channelId = await seedChannel(testApp, { key, baseUrl: fake.baseUrl, models: [model], priority });
    const loggedState = async () => {
      // The charge is settled once the relay has seen the abort; poll until its log is written.
      await expect.poll(async () => (await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] })).logs.length).toBe(1);
      return ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    };
    return { userId, token, channelId, loggedState };
  }

  /** Every quota column moved by exactly the logged amount, once. */
  function expectChargedExactly(state: Awaited<ReturnType<typeof ledgerState>>, quota: number): void {
    expectChargedOnce(state, quota);
    // Leaving is not the channel's fault.
    expect(state.channels[0]?.status).toBe(1);
  }

  it.each([
    ['a non-streamed answer', false, 'timeout', 100, 'end_reason'],
    ['a stream before its first chunk', true, 'silent', 200, 'stream_status'],
  ] as const)(
    'aborts the upstream and charges the prompt, counted locally, when the caller leaves during %s',
    async (_name, stream, mode, priority, reasonKey) => {
      const key = `thinking-${mode}`;
      // Above the earlier tests' gpt-4o channels, so this one is picked.
      const run = await setUpLeaving(key, mode, 'gpt-4o', priority);
      const prompt = 'Think hard about the meaning of a long and winding road';
      await leaveWhileUpstreamThinks(key, run.token.apiKey, { model: 'gpt-4o', max_tokens: 1000, stream, messages: [{ role: 'user', content: prompt }] });
      // Without the abort the relay would wait for the upstream until its timeout (minutes).
      await fake.waitForAbort();

      const state = await run.loggedState();
      const log = state.logs[0];
      const promptTokens = countTextTokens(prompt);
      // gpt-4o: ratio 1.25; no completion was produced. Far below the hold of (500 + 1000 × 4) × 1.25.
      const quota = Math.round(promptTokens * 1.25);
      expect(log).toMatchObject({ prompt_tokens: promptTokens, completion_tokens: 0, quota, channel_id: run.channelId });
      // A flag: a number on SQLite and MySQL, a boolean on PostgreSQL.
      expect(Number(log?.is_stream)).toBe(stream ? 1 : 0);
      const other = JSON.parse(log?.other ?? '{}');
      expect(other).toMatchObject({ [reasonKey]: 'client_gone', admin_info: { local_count_tokens: true, use_channel: [run.channelId] } });
      // No answer byte arrived: no first-response time.
      expect(other.frt).toBeUndefined();
      expectChargedExactly(state, quota);
      expect(fake.requestsFor(key)).toHaveLength(1);
    },
  );

  it('charges a per-call price whole once the upstream received the call', async () => {
    const model = 'gpt-4o-per-call';
    const options = testApp.context.options;
    await options.set('ModelPrice', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelPrice'), [model]: 0.02 }));
    const run = await setUpLeaving('thinking-priced', 'timeout', model, 0);
    await leaveWhileUpstreamThinks('thinking-priced', run.token.apiKey, { model, messages: [{ role: 'user', content: 'Think hard' }] });
    await fake.waitForAbort();

    const state = await run.loggedState();
    // 0.02 US$ × 500,000 quota per unit × group ratio 1.
    expect(state.logs[0]).toMatchObject({ quota: 10_000, completion_tokens: 0 });
    expect(JSON.parse(state.logs[0]?.other ?? '{}')).toMatchObject({ model_price: 0.02, end_reason: 'client_gone' });
    expectChargedExactly(state, 10_000);
  });
});
