import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/realtime/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../providers/claude/testing/native-relay.ts';
import { startFakeRealtime, type FakeRealtime, type RealtimeResponseUsage } from './testing/fake-realtime.ts';
import { startTlsFront, type TlsFront } from './testing/tls-front.ts';

// One model per channel, so each test reaches the fake it means.
const gaModel = 'gpt-realtime';
const betaModel = 'gpt-realtime-mini';
const azureGaModel = 'gpt-realtime-azure';
const azureBetaModel = 'gpt-realtime-mini-azure';
// One text response as OpenAI's GA API reports it: 41 in, 9 out, no audio.
const responseUsage: RealtimeResponseUsage = {
  total_tokens: 50,
  input_tokens: 41,
  output_tokens: 9,
  input_token_details: { cached_tokens: 0, text_tokens: 41, audio_tokens: 0 },
  output_token_details: { text_tokens: 9, audio_tokens: 0 },
};
// Ratio 2, completion 4: (41 + 9 × 4) × 2 = 154.
const oneResponseCharge = 154;
// The consume log is written by the log flusher; a loaded machine can take seconds.
const logWritten = { timeout: 10_000, interval: 50 };

interface SdkSession {
  readonly types: string[];
  readonly text: string;
  readonly closeCode: number;
}

/**
 * A text session as the official openai SDK's default (GA) realtime client holds one: session.update
 * with `type: "realtime"`, one response, its text collected from `response.output_text.delta`.
 */
async function sdkTextSession(front: TlsFront, apiKey: string, model: string, headers: Record<string, string> = {}): Promise<SdkSession> {
  const client = new OpenAI({ apiKey, baseURL: `${front.baseUrl}/v1` });
  const realtime = new OpenAIRealtimeWS({ model, options: { ca: front.certificate, headers } }, client);
  const types: string[] = [];
  let text = '';
  realtime.on('event', (event) => types.push(event.type));
  realtime.on('response.output_text.delta', (event) => (text += event.delta));
  const closed = new Promise<number>((resolve) => realtime.socket.on('close', (code: number) => resolve(code)));
  const done = new Promise<void>((resolve) => realtime.on('response.done', () => resolve()));
  realtime.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    realtime.socket.once('open', () => resolve());
    realtime.socket.once('error', reject);
  });
  realtime.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });
  realtime.send({ type: 'response.create' });
  const finished = await Promise.race([done.then(() => 'done' as const), closed.then(() => 'closed' as const)]);
  if (finished === 'done') realtime.close({ code: 1000, reason: 'bye' });
  return { types, text, closeCode: await closed };
}

describe.each(testDatabases().filter((database) => database.dialect === 'sqlite'))('the openai SDK realtime client on $dialect', (database) => {
  let relay: NativeRelay;
  let front: TlsFront;
  let fake: FakeRealtime;
  let gaOnly: FakeRealtime;

  beforeAll(async () => {
    fake = await startFakeRealtime({ key: 'sk-upstream-realtime', usage: responseUsage });
    gaOnly = await startFakeRealtime({ key: 'sk-upstream-realtime', usage: responseUsage, gaOnly: true });
    relay = await startNativeRelay(database);
    front = await startTlsFront(relay.baseUrl);
    const { options } = relay.testApp.context;
    const models = [gaModel, betaModel, azureGaModel, azureBetaModel];
    await options.set('ModelRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 2]))));
    await options.set('CompletionRatio', JSON.stringify(Object.fromEntries(models.map((model) => [model, 4]))));
  });
  afterAll(async () => {
    await front.close();
    await relay.close();
    await fake.close();
    await gaOnly.close();
  });

  it('holds a GA text session through wss:// on a GA-only model, no beta header upstream, billed once', async () => {
    const channelId = await relay.channel({ type: 1, key: 'sk-upstream-realtime', baseUrl: gaOnly.baseUrl, models: [gaModel] });
    const token = await relay.token();
    const session = await sdkTextSession(front, token.apiKey, gaModel);

    expect(session.text).toBe('Hello');
    expect(session.types).toEqual(['session.created', 'response.created', 'response.output_audio.delta', 'response.output_text.delta', 'response.done']);
    expect(session.closeCode).toBe(1000);
    const upstream = gaOnly.sessions.at(-1);
    expect(upstream?.headers['openai-beta']).toBeUndefined();
    expect(JSON.parse(upstream?.frames[0] ?? '{}')).toEqual({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'] } });

    await expect
      .poll(async () => (await token.state([channelId])).logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, log.model_name]), logWritten)
      .toEqual([[oneResponseCharge, 41, 9, gaModel]]);
    const state = await token.state([channelId]);
    expect([state.token.used_quota, state.channels[0]?.used_quota]).toEqual([oneResponseCharge, oneResponseCharge]);
  });

  it('asks the upstream for beta only when the caller sent OpenAI-Beta: realtime=v1, and bills the beta shape the same', async () => {
    const channelId = await relay.channel({ type: 1, key: 'sk-upstream-realtime', baseUrl: fake.baseUrl, models: [betaModel] });
    const token = await relay.token();
    const session = await sdkTextSession(front, token.apiKey, betaModel, { 'OpenAI-Beta': 'realtime=v1' });

    // The beta protocol's events: the GA client has no text to collect from them, as with OpenAI itself.
    expect(session.types).toEqual(['session.created', 'response.created', 'response.audio.delta', 'response.text.delta', 'response.done']);
    expect(session.text).toBe('');
    expect(fake.sessions.at(-1)?.headers['openai-beta']).toBe('realtime=v1');
    await expect
      .poll(async () => (await token.state([channelId])).logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens]), logWritten)
      .toEqual([[oneResponseCharge, 41, 9]]);
  });

  it("holds a GA text session on an Azure channel: Azure's GA path, the key in api-key, billed once", async () => {
    const channelId = await relay.channel({ type: 3, key: 'sk-upstream-realtime', baseUrl: gaOnly.baseUrl, models: [azureGaModel] });
    const token = await relay.token();
    const session = await sdkTextSession(front, token.apiKey, azureGaModel);

    expect(session.text).toBe('Hello');
    expect(session.types).toEqual(['session.created', 'response.created', 'response.output_audio.delta', 'response.output_text.delta', 'response.done']);
    expect(session.closeCode).toBe(1000);
    const upstream = gaOnly.sessions.at(-1);
    expect([upstream?.path, upstream?.query.get('model'), upstream?.query.has('api-version'), upstream?.headers['api-key']]).toEqual([
      '/openai/v1/realtime',
      azureGaModel,
      false,
      'sk-upstream-realtime',
    ]);
    expect(upstream?.headers['openai-beta']).toBeUndefined();
    await expect
      .poll(async () => (await token.state([channelId])).logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, log.model_name]), logWritten)
      .toEqual([[oneResponseCharge, 41, 9, azureGaModel]]);
    const state = await token.state([channelId]);
    expect([state.token.used_quota, state.channels[0]?.used_quota]).toEqual([oneResponseCharge, oneResponseCharge]);
  });

  it("takes an Azure channel's preview path, with its API version, only for a caller that asked for beta", async () => {
    const channelId = await relay.channel({
      type: 3,
      key: 'sk-upstream-realtime',
      baseUrl: fake.baseUrl,
      models: [azureBetaModel],
      other: '2025-04-01-preview',
    });
    const token = await relay.token();
    const session = await sdkTextSession(front, token.apiKey, azureBetaModel, { 'OpenAI-Beta': 'realtime=v1' });

    expect(session.types).toEqual(['session.created', 'response.created', 'response.audio.delta', 'response.text.delta', 'response.done']);
    const upstream = fake.sessions.at(-1);
    expect([upstream?.path, upstream?.query.get('deployment'), upstream?.query.get('api-version')]).toEqual([
      '/openai/realtime',
      azureBetaModel,
      '2025-04-01-preview',
    ]);
    await expect
      .poll(async () => (await token.state([channelId])).logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens]), logWritten)
      .toEqual([[oneResponseCharge, 41, 9]]);
  });
});
