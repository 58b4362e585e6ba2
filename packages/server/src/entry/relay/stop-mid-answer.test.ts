import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { countTextTokens } from './pipeline/token-estimate.ts';
import { startFakeRealtime } from './realtime/testing/fake-realtime.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { expectChargedOnce } from './testing/charged-once.ts';
import { ledgerState, listenLocally, seedChannel, seedToken } from './testing/relay-seed.ts';

/**
 * A stop while answers are still going: a stream that never ends and an upstream that never answers.
 * At the end of the grace (SHUTDOWN_TIMEOUT_SECONDS less its last quarter) their connections are cut,
 * each request settles as when its caller leaves (the stream billed for the tokens it delivered, the
 * other for its prompt), and the stop writes those charges before it ends. Before, the process
 * waited for them until its deadline and exited with every charge in flight unwritten. A realtime
 * session (which can last hours) ends at once and is charged for what it used.
 */
describe.each(testDatabases())('a stop while answers are in flight on $dialect', (database) => {
  let fake: FakeOpenAIUpstream;
  const apps: TestApp[] = [];

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
  });
  afterAll(async () => {
    for (const testApp of apps) await testApp.close();
    await fake.stop();
  });

  /** A gateway stopping within 2 s (1.5 s of grace), a funded token and a channel answering as `mode` (or at `realtimeUrl`). */
  async function gatewayWith(key: string, mode: 'hang-after' | 'timeout', realtimeUrl?: string) {
    const testApp = await createTestApp(database, { SHUTDOWN_TIMEOUT_SECONDS: '2' });
    apps.push(testApp);
    const baseUrl = await listenLocally(testApp);
    const userId = (await createTestUser(testApp, { quota: 10_000_000 })).id;
    const token = await seedToken(testApp, userId, { remainQuota: 1_000_000 });
    fake.behave(key, mode);
    const channelId = await seedChannel(testApp, { key, baseUrl: realtimeUrl ?? fake.baseUrl, models: ['gpt-4o'] });
    const ask = (body: Record<string, unknown>) =>
      fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o', max_tokens: 1000, ...body }),
      });
    /** Stops the app as SIGTERM does; answers how long the stop took. */
    const stop = async () => {
      const started = Date.now();
      await testApp.app.close();
      return Date.now() - started;
    };
    const state = () => ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    /** What the stop left unsettled or unwritten: nothing, or the next start would have to replay it. */
    const leftOver = () => ({ holding: testApp.app.relay.ledger.requestsHolding, unwritten: testApp.app.relay.ledger.hasUnwritten });
    return { ask, stop, state, leftOver, baseUrl, apiKey: token.apiKey };
  }

  /** One log row, and every quota column moved by exactly its amount, once. */
  function expectChargedExactly(state: Awaited<ReturnType<typeof ledgerState>>, quota: number): void {
    expect(state.logs).toHaveLength(1);
    expectChargedOnce(state, quota);
  }

  it('cuts a stream that goes on past the grace, and writes its charge for the tokens delivered before it stops', async () => {
    const gateway = await gatewayWith('stop-endless-stream', 'hang-after');
    const answer = await gateway.ask({ stream: true, messages: [{ role: 'user', content: 'Tell me a long story' }] });
    const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
    let received = '';
    while (!received.includes('"content":" the"')) received += new TextDecoder().decode((await reader.read()).value);
    const rest = (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
    })();

    const tookMs = await gateway.stop();
    await rest;
    // It waited out the grace (1.5 s) for the answer, then ended: without the cut it waits for ever.
    expect(tookMs).toBeGreaterThanOrEqual(1_400);
    expect(gateway.leftOver()).toEqual({ holding: 0, unwritten: false });

    const state = await gateway.state();
    const log = state.logs[0];
    // "Hello from the": three tokens reached the caller; gpt-4o: ratio 1.25, completion ratio 4.
    expect(log?.completion_tokens).toBe(3);
    expect(log?.quota).toBe(Math.round(((log?.prompt_tokens ?? 0) + 3 * 4) * 1.25));
    expect(JSON.parse(log?.other ?? '{}')).toMatchObject({ stream_status: 'client_gone' });
    expectChargedExactly(state, log?.quota ?? -1);
  });

  it('cuts a call whose upstream has not answered by then, and writes the charge for its prompt', async () => {
    const gateway = await gatewayWith('stop-thinking', 'timeout');
    const prompt = 'Think hard about the meaning of a long and winding road';
    const answered = gateway.ask({ messages: [{ role: 'user', content: prompt }] }).catch((error: unknown) => error);
    await expect.poll(() => fake.requestsFor('stop-thinking').length).toBe(1);

    const tookMs = await gateway.stop();
    expect(await answered).toBeInstanceOf(Error);
    expect(tookMs).toBeGreaterThanOrEqual(1_400);
    expect(gateway.leftOver()).toEqual({ holding: 0, unwritten: false });

    const state = await gateway.state();
    const quota = Math.round(countTextTokens(prompt) * 1.25);
    expect(state.logs[0]).toMatchObject({ completion_tokens: 0, quota });
    expectChargedExactly(state, quota);
  });

  it('ends a realtime session at once and writes its charge for what it used', async () => {
    // One response: 127 in, 148 out, all text here; gpt-4o: ratio 1.25, completion ratio 4.
    const usage = {
      total_tokens: 275,
      input_tokens: 127,
      output_tokens: 148,
      input_token_details: { cached_tokens: 0, text_tokens: 127, audio_tokens: 0 },
      output_token_details: { text_tokens: 148, audio_tokens: 0 },
    };
    const realtime = await startFakeRealtime({ key: 'stop-realtime', usage });
    try {
      const gateway = await gatewayWith('stop-realtime', 'timeout', realtime.baseUrl);
      const client = new WebSocket(`${gateway.baseUrl.replace('http', 'ws')}/v1/realtime?model=gpt-4o`, {
        headers: { authorization: `Bearer ${gateway.apiKey}` },
      });
      const closed = new Promise<number>((resolve) => client.on('close', (code) => resolve(code)));
      const responded = new Promise<void>((resolve) => client.on('message', (data) => JSON.parse(data.toString()).type === 'response.done' && resolve()));
      await new Promise<void>((resolve, reject) => client.once('open', () => resolve()).once('error', reject));
      client.send(JSON.stringify({ type: 'response.create' }));
      await responded;

      const tookMs = await gateway.stop();
      await closed;
      // Not the answers' grace: a session carries no answer to wait for.
      expect(tookMs).toBeLessThan(1_400);
      expect(gateway.leftOver()).toEqual({ holding: 0, unwritten: false });
      const quota = Math.round((127 + 148 * 4) * 1.25);
      expectChargedExactly(await gateway.state(), quota);
    } finally {
      await realtime.close();
    }
  });
});
