import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../testing/test-app.ts';
import { testDatabases } from '../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
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
  async function leaveWhileUpstreamThinks(key: string, apiKey: string, stream: boolean): Promise<void> {
    const controller = new AbortController();
    const sent = fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', max_tokens: 1000, stream, messages: [{ role: 'user', content: 'Think hard' }] }),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await expect.poll(() => fake.requestsFor(key).length).toBe(1);
    controller.abort();
    await sent;
  }

  it.each([
    ['a non-streamed answer', false, 'timeout', 100],
    ['a stream before its first chunk', true, 'silent', 200],
  ] as const)('aborts the upstream and refunds the hold when the caller leaves during %s', async (_name, stream, mode, priority) => {
    const userId = (await createTestUser(testApp, { quota: 10_000_000 })).id;
    const token = await seedToken(testApp, userId, { remainQuota: 1_000_000 });
    const key = `thinking-${mode}`;
    fake.abortedRequests = 0;
    fake.behave(key, mode);
    // Above the earlier tests' gpt-4o channels, so this one is picked.
    const channelId = await seedChannel(testApp, { key, baseUrl: fake.baseUrl, models: ['gpt-4o'], priority });

    await leaveWhileUpstreamThinks(key, token.apiKey, stream);
    // Without the abort the relay would wait for the upstream until its timeout (minutes).
    await fake.waitForAbort();
    await expect.poll(async () => (await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] })).token.remain_quota).toBe(1_000_000);
    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(state.logs).toHaveLength(0);
    expect(state.token.used_quota).toBe(0);
    expect(state.user.quota).toBe(10_000_000);
    // Leaving is not the channel's fault.
    expect(state.channels[0]?.status).toBe(1);
    expect(fake.requestsFor(key)).toHaveLength(1);
  });
});
