import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeChatCompletion } from '../../testing/fake-chat-upstream.ts';
import type { TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import type { FakeMode, FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { openTieredFaultWorld, type TieredFaultWorld } from './testing/tiered-fault-cases.ts';
import { openaiClient, seedChannel, seedToken } from './testing/relay-seed.ts';

/**
 * An upstream that answers whole, but only after this long: well past the suite's one-second limit,
 * which undici's headers timer (what enforces it for whole answers) keeps to within about half a
 * second of its own coarse clock.
 */
const lateAnswerMs = 2_500;

/**
 * An upstream that sends nothing (no headers, or a stream's headers and no chunk) within the first-byte
 * limit (RELAY_FIRST_BYTE_TIMEOUT, here 1 s; a channel's `first_byte_timeout` setting) is abandoned:
 * nothing charged, the next channel tried as RetryTimes allows, and a 504 when none is left.
 */
describe.each(testDatabases())('the first-byte timeout on $dialect', (database) => {
  let world: TieredFaultWorld;
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let late: Server;
  let lateUrl: string;
  let baseUrl: string;
  let userId: number;

  beforeAll(async () => {
    late = createServer((_request, response) => {
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fakeChatCompletion)), lateAnswerMs);
    });
    await new Promise<void>((resolve) => late.listen(0, '127.0.0.1', resolve));
    lateUrl = `http://127.0.0.1:${(late.address() as AddressInfo).port}`;
    // STREAMING_TIMEOUT far longer: only the first-byte limit can end these waits.
    world = await openTieredFaultWorld(database, {
      env: { RELAY_FIRST_BYTE_TIMEOUT: '1', STREAMING_TIMEOUT: '60' },
      modelPrefix: 'first-byte-model',
      primaryPrefix: 'hanging',
    });
    ({ testApp, fake, baseUrl, userId } = world);
  });
  afterAll(async () => {
    await world.close();
    await new Promise<void>((resolve) => late.close(() => resolve()));
  });

  /** A hanging primary channel (priority 10) and, unless told otherwise, a healthy backup (priority 0). */
  const setUp = (mode: FakeMode, options?: { backup?: boolean }) => world.setUp(mode, options);
  const ask = (model: string) => ({ model, messages: [{ role: 'user' as const, content: 'Hello' }] });

  it('abandons an upstream that sends no headers, uncharged, and answers from the next channel', async () => {
    const run = await setUp('timeout');
    const started = Date.now();
    const answer = await run.client.chat.completions.create(ask(run.model));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(answer.choices[0]?.message.content).toBe('Hello from the fake upstream.');
    expect(fake.requestsFor(run.primaryKey)).toHaveLength(1);
    expect(fake.requestsFor(run.backupKey)).toHaveLength(1);
    const state = await run.state();
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ quota: 18, channel_id: run.backup });
    expect(state.token.remain_quota).toBe(1_000_000 - 18);
    expect(state.channels.find((channel) => channel.id === run.primary)?.used_quota).toBe(0);
  });

  it('abandons a stream whose first chunk does not come, uncharged, and streams from the next channel', async () => {
    const run = await setUp('silent');
    const stream = await run.client.chat.completions.create({ ...ask(run.model), stream: true });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the fake upstream.');
    expect(fake.requestsFor(run.backupKey)).toHaveLength(1);
    const state = await run.state();
    expect(state.logs).toHaveLength(1);
    expect(state.logs[0]).toMatchObject({ channel_id: run.backup });
    expect(state.token.used_quota).toBe(state.logs[0]?.quota);
  });

  it('answers 504 first_byte_timeout when no channel is left, and charges nothing', async () => {
    const run = await setUp('timeout', { backup: false });
    const error = await run.client.chat.completions.create(ask(run.model)).then(
      () => ({ status: 200, code: '', message: '' }),
      (caught: unknown) => caught as { status: number; code: string; message: string },
    );
    expect(error).toMatchObject({ status: 504, code: 'first_byte_timeout' });
    expect(error.message).toContain('The upstream sent nothing within 1 s');
    const state = await run.state();
    expect(state.logs).toHaveLength(0);
    expect({ remain: state.token.remain_quota, used: state.token.used_quota }).toEqual({ remain: 1_000_000, used: 0 });
  });

  it("lets a channel's first_byte_timeout setting replace the default", async () => {
    const model = world.nextModel();
    const channelId = await seedChannel(testApp, { key: 'late-key', baseUrl: lateUrl, models: [model] });
    const token = await seedToken(testApp, userId, { remainQuota: 1_000_000 });
    const client = openaiClient(baseUrl, token.apiKey);
    // The default (1 s) gives up on it…
    await expect(client.chat.completions.create(ask(model))).rejects.toMatchObject({ status: 504, code: 'first_byte_timeout' });
    // …five seconds of its own let it answer.
    await testApp.context.database.db.updateTable('channels').set({ setting: '{"first_byte_timeout": 5}' }).where('id', '=', channelId).execute();
    await testApp.app.relay.channels.reload();
    const answer = await client.chat.completions.create(ask(model));
    expect(answer.choices[0]?.message.content).toBe('hello');
  });
});
