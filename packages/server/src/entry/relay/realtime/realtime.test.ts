import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { WebSocket } from 'ws';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../providers/claude/testing/native-relay.ts';
import { startFakeRealtime, type FakeRealtime, type RealtimeResponseUsage } from './testing/fake-realtime.ts';

const model = 'gpt-4o-realtime-preview';
// One response as OpenAI reports it: 127 in (8 of them audio), 148 out (112 of them audio).
const responseUsage: RealtimeResponseUsage = {
  total_tokens: 275,
  input_tokens: 127,
  output_tokens: 148,
  input_token_details: { cached_tokens: 0, text_tokens: 119, audio_tokens: 8 },
  output_token_details: { text_tokens: 36, audio_tokens: 112 },
};
// Ratio 2.5, completion 4, audio 8, audio completion 2. Two responses: 238 text in + 16 audio in × 8
// + 72 text out × 4 + 224 audio out × 8 × 2 = 238 + 128 + 288 + 3,584 = 4,238 tokens × 2.5 = 10,595.
const twoResponsesCharge = 10_595;
// One response: 119 + 8 × 8 + 36 × 4 + 112 × 16 = 119 + 64 + 144 + 1,792 = 2,119 × 2.5 = 5,297.5 → 5,298.
const oneResponseCharge = 5298;

/** A realtime client as OpenAI's SDKs open it, with every event it received as parsed JSON. */
async function connect(url: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}) {
  const socket = new WebSocket(url, options.protocols ?? [], { headers: options.headers ?? {} });
  const events: Array<{ type: string; [key: string]: unknown }> = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    events.push(JSON.parse(data.toString()) as { type: string });
    for (const waiter of waiters.splice(0)) waiter();
  });
  const closed = new Promise<{ code: number }>((resolve) => socket.on('close', (code) => resolve({ code })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  /** Resolves once `count` events of `type` arrived. */
  const waitFor = async (type: string, count = 1) => {
    while (events.filter((event) => event.type === type).length < count) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { socket, events, closed, waitFor };
}

/** The HTTP answer of a refused upgrade: its status and body. */
function refusal(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers });
    socket.once('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    socket.once('open', () => reject(new Error('the upgrade was accepted')));
    socket.once('error', () => undefined);
  });
}

describe.each(testDatabases())('realtime sessions on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeRealtime;
  let url = '';

  beforeAll(async () => {
    fake = await startFakeRealtime({ key: 'sk-upstream-realtime', usage: responseUsage });
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    await options.set('ModelRatio', JSON.stringify({ [model]: 2.5 }));
    await options.set('CompletionRatio', JSON.stringify({ [model]: 4 }));
    await options.set('AudioRatio', JSON.stringify({ [model]: 8 }));
    await options.set('AudioCompletionRatio', JSON.stringify({ [model]: 2 }));
    url = `${relay.baseUrl.replace('http', 'ws')}/v1/realtime?model=${model}`;
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('relays a session frame for frame and charges its text and audio tokens once, when it closes', async () => {
    const channelId = await relay.channel({ type: 1, key: 'sk-upstream-realtime', baseUrl: fake.baseUrl, models: [model] });
    const token = await relay.token();
    const client = await connect(url, { headers: { authorization: `Bearer ${token.apiKey}`, 'openai-beta': 'realtime=v1' } });
    await client.waitFor('session.created');
    const update = JSON.stringify({ type: 'session.update', session: { modalities: ['text', 'audio'], voice: 'alloy' } });
    client.socket.send(update);
    client.socket.send(JSON.stringify({ type: 'response.create' }));
    await client.waitFor('response.done');
    client.socket.send(JSON.stringify({ type: 'response.create' }));
    await client.waitFor('response.done', 2);
    client.socket.close(1000);
    expect((await client.closed).code).toBe(1000);

    // Every upstream event reached the caller, in order; the caller's frames reached the upstream unchanged.
    expect(client.events.map((event) => event.type)).toEqual([
      'session.created',
      ...['response.created', 'response.audio.delta', 'response.text.delta', 'response.done'],
      ...['response.created', 'response.audio.delta', 'response.text.delta', 'response.done'],
    ]);
    const session = fake.sessions.at(-1);
    expect(session?.frames[0]).toBe(update);
    expect(session?.headers.authorization).toBe('Bearer sk-upstream-realtime');
    // The caller asked for the beta protocol, so the upstream session was opened as beta.
    expect(session?.headers['openai-beta']).toBe('realtime=v1');
    expect(session?.query.get('model')).toBe(model);

    await expect
      .poll(async () => (await token.state([channelId])).logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, log.model_name]), {
        timeout: 10_000,
      })
      .toEqual([[twoResponsesCharge, 254, 296, model]]);
    const state = await token.state([channelId]);
    expect(state.token.used_quota).toBe(twoResponsesCharge);
    expect(state.channels[0]?.used_quota).toBe(twoResponsesCharge);
    const other = JSON.parse(state.logs[0]?.other ?? '{}') as Record<string, unknown>;
    expect(other).toMatchObject({ request_path: '/v1/realtime', audio: true, audio_input: 16, audio_output: 224 });
  });

  it('takes the key from the subprotocol browsers send, and answers with the realtime protocol only', async () => {
    const channelId = await relay.channel({ type: 1, key: 'sk-upstream-realtime', baseUrl: fake.baseUrl, models: [model] });
    const token = await relay.token();
    const client = await connect(url, { protocols: ['realtime', `openai-insecure-api-key.${token.apiKey}`, 'openai-beta.realtime-v1'] });
    expect(client.socket.protocol).toBe('realtime');
    client.socket.send(JSON.stringify({ type: 'response.create' }));
    await client.waitFor('response.done');
    // The beta subprotocol asks for the beta protocol upstream.
    expect(client.events.map((event) => event.type)).toContain('response.text.delta');
    expect(fake.sessions.at(-1)?.headers['openai-beta']).toBe('realtime=v1');
    client.socket.close(1000);
    await client.closed;
    await expect.poll(async () => (await token.state([channelId])).logs.map((log) => log.quota)).toEqual([oneResponseCharge]);
  });

  it('refuses a wrong key, an unpriced model and an unknown path with an HTTP error in OpenAI shape, charging nothing', async () => {
    const bad = await refusal(url, { authorization: 'Bearer sk-not-a-key' });
    expect(bad.status).toBe(401);
    expect(JSON.parse(bad.body)).toMatchObject({ error: { code: 'invalid_token', type: 'new_api_error' } });

    const token = await relay.token();
    const unpriced = await refusal(url.replace(model, 'gpt-unpriced-realtime'), { authorization: `Bearer ${token.apiKey}` });
    expect(unpriced.status).toBe(400);
    expect(JSON.parse(unpriced.body)).toMatchObject({ error: { code: 'model_price_error' } });

    const elsewhere = await refusal(url.replace('/v1/realtime', '/v1/%72ealtime'), { authorization: `Bearer ${token.apiKey}` });
    expect(elsewhere.status).toBe(404);
    const state = await token.state([]);
    expect([state.token.used_quota, state.logs.length]).toEqual([0, 0]);
  });

  it("gives the hold back and closes the upstream when the caller's handshake cannot be completed", async () => {
    const channelId = await relay.channel({ type: 1, key: 'sk-upstream-realtime', baseUrl: fake.baseUrl, models: [model] });
    const token = await relay.token();
    const sessions = fake.sessions.length;
    // An upgrade without Sec-WebSocket-Key: authenticated, priced and connected upstream, then refused by the handshake.
    const status = await new Promise<number>((resolve, reject) => {
      const upgrade = httpRequest(`${relay.baseUrl}/v1/realtime?model=${model}`, {
        headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', authorization: `Bearer ${token.apiKey}` },
      });
      upgrade.on('response', (response) => resolve(response.statusCode ?? 0));
      upgrade.on('error', reject);
      upgrade.end();
    });
    expect(status).toBe(400);
    expect(fake.sessions.length).toBe(sessions + 1);
    await expect.poll(() => fake.openSessions()).toBe(0);
    const state = await token.state([channelId]);
    expect([state.token.used_quota, state.token.remain_quota, state.logs.length]).toEqual([0, 10_000_000, 0]);
  });

  it('charges what was used when the upstream hangs up, and nothing for a session that produced nothing', async () => {
    const channelId = await relay.channel({ type: 1, key: 'sk-upstream-realtime', baseUrl: fake.baseUrl, models: [model] });
    const token = await relay.token();
    const client = await connect(url, { headers: { authorization: `Bearer ${token.apiKey}` } });
    client.socket.send(JSON.stringify({ type: 'response.create' }));
    await client.waitFor('response.done');
    fake.hangUp(1011);
    expect((await client.closed).code).toBe(1011);
    await expect.poll(async () => (await token.state([channelId])).logs.map((log) => log.quota)).toEqual([oneResponseCharge]);

    const idle = await relay.token();
    const quiet = await connect(url, { headers: { authorization: `Bearer ${idle.apiKey}` } });
    await quiet.waitFor('session.created');
    quiet.socket.close(1000);
    await quiet.closed;
    // The hold is given back: nothing used, nothing charged, no log row.
    const state = await idle.state([channelId]);
    expect([state.token.used_quota, state.token.remain_quota, state.logs.length]).toEqual([0, 10_000_000, 0]);
  });

  it('disables a channel whose key the vendor refuses and opens the session on the next one; Azure on its own path', async () => {
    const deadKey = await relay.channel({ type: 1, key: 'sk-revoked', baseUrl: fake.baseUrl, models: ['gpt-realtime-azure'], priority: 10 });
    const azure = await relay.channel({ type: 3, key: 'sk-upstream-realtime', baseUrl: fake.baseUrl, models: ['gpt-realtime-azure'], priority: 0 });
    const { options } = relay.testApp.context;
    await options.set('ModelRatio', JSON.stringify({ [model]: 2.5, 'gpt-realtime-azure': 2.5 }));
    const token = await relay.token();
    const client = await connect(url.replace(model, 'gpt-realtime-azure'), { headers: { authorization: `Bearer ${token.apiKey}` } });
    const session = fake.sessions.at(-1);
    // A GA caller: Azure's GA path, the deployment as `model`, no API version.
    expect([session?.path, session?.query.get('model'), session?.query.get('api-version'), session?.headers['api-key']]).toEqual([
      '/openai/v1/realtime',
      'gpt-realtime-azure',
      null,
      'sk-upstream-realtime',
    ]);
    client.socket.close(1000);
    await client.closed;
    await relay.waitForStatus(deadKey, ChannelStatus.autoDisabled);
    const state = await token.state([azure]);
    expect(state.logs).toEqual([]);
  });
});
