import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup } from '../claude/testing/channel-fail-over.ts';
import { fakeMokaaiKeys, startFakeMokaai } from './testing/fake-mokaai.ts';

const models = ['m3e-base', 'm3e-small', 'm3e-large', 'm3e-base-chat'];
// Ratio 0.5: 12 prompt tokens × 0.5 = 6.
const embeddingsCharge = 6;

describe.each(testDatabases())('MokaAI channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeMokaai();
    relay = await startNativeRelay(database);
    const { options } = relay.testApp.context;
    const ratios = Object.fromEntries(models.map((name) => [name, 0.5]));
    await options.set('ModelRatio', JSON.stringify({ ...options.getJson<Record<string, number>>('ModelRatio'), ...ratios }));
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('embeds through {base}/embeddings with the bearer key and bills the reported tokens', async () => {
    const channelId = await relay.channel({ type: 44, key: fakeMokaaiKeys.good, baseUrl: fake.url, models: ['m3e-base'] });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).embeddings.create({ model: 'm3e-base', input: 'one text', encoding_format: 'float' });
    expect(answer.data.map((item) => item.embedding)).toEqual([
      [0.0213, -0.0472, 0.0118, 0.0639],
      [-0.0087, 0.0325, 0.0541, -0.0196],
    ]);
    expect(answer.usage).toMatchObject({ prompt_tokens: 12, total_tokens: 12 });
    const sent = fake.requests.at(-1);
    expect(sent?.headers['authorization']).toBe(`Bearer ${fakeMokaaiKeys.good}`);
    expect(sent?.body).toEqual({ model: 'm3e-base', input: ['one text'] });
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: embeddingsCharge, prompt_tokens: 12, completion_tokens: 0, channel_id: channelId, model_name: 'm3e-base' });
    expect(state.token.remain_quota).toBe(10_000_000 - embeddingsCharge);
  });

  it('disables a channel whose key is refused and answers from the next', async () => {
    const seed = { type: 44, baseUrl: fake.url, model: 'm3e-small', failingKey: 'moka-wrong-key', backupKey: fakeMokaaiKeys.backup };
    const run = await callPastFailingChannel(relay, seed, (client, model) => client.embeddings.create({ model, input: ['a', 'b'] }));
    expect(run.answer.data).toHaveLength(2);
    await expectServedByBackup(relay, run, 'disabled');
  });

  it('retries a rate-limited channel elsewhere and keeps it enabled', async () => {
    const seed = { type: 44, baseUrl: fake.url, model: 'm3e-large', failingKey: fakeMokaaiKeys.rateLimited, backupKey: fakeMokaaiKeys.good };
    const run = await callPastFailingChannel(relay, seed, (client, model) => client.embeddings.create({ model, input: 'x' }));
    await expectServedByBackup(relay, run, 'kept');
  });

  it('answers chat on a MokaAI channel with a clear unsupported-capability error', async () => {
    await relay.channel({ type: 44, key: fakeMokaaiKeys.good, baseUrl: fake.url, models: ['m3e-base-chat'] });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'm3e-base-chat', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((caught: unknown) => caught)) as { status: number; error: { code: string } };
    expect(error.status).toBe(400);
    expect(error.error.code).toBe('unsupported_capability');
  });
});
