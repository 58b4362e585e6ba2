import Anthropic from '@anthropic-ai/sdk';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { countTextTokens } from '../../pipeline/token-estimate.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { callPastFailingChannel, expectServedByBackup, sayHi } from '../claude/testing/channel-fail-over.ts';
import { fakeCohereKeys, startFakeCohere } from './testing/fake-cohere.ts';

const answer = 'The tallest living penguins are emperor penguins, standing about 1.1 metres tall.';
// command-r: ratio 0.25, completion ratio 1; Cohere billed 31 prompt and 18 completion tokens: 49 × 0.25 = 12.25.
const chatCharge = 12;

describe.each(testDatabases())('Cohere channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeCohere();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client, whole and streamed, with Cohere billed units as usage and charges', async () => {
    const channelId = await relay.channel({ type: 34, key: 'cohere-good', baseUrl: fake.url, models: ['command-r'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const messages = [
      { role: 'system' as const, content: 'You are terse.' },
      { role: 'user' as const, content: 'Which penguins are the tallest?' },
    ];
    const whole = await client.chat.completions.create({ model: 'command-r', messages });
    expect(whole.choices[0]?.message.content).toBe(answer);
    expect(whole.usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 18, total_tokens: 49 });
    const sent = fake.requests.at(-1);
    expect(sent?.headers.authorization).toBe('Bearer cohere-good');
    expect(sent?.body).toEqual({ model: 'command-r', message: 'Which penguins are the tallest?', preamble: 'You are terse.' });

    const stream = await client.chat.completions.create({ model: 'command-r', messages, stream: true, stream_options: { include_usage: true } });
    let content = '';
    let finish: string | null = null;
    let usage: unknown;
    for await (const chunk of stream) {
      content += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage;
    }
    expect(content).toBe(answer);
    expect(finish).toBe('stop');
    expect(usage).toMatchObject({ prompt_tokens: 31, completion_tokens: 18 });
    expect(fake.requests.at(-1)?.body?.stream).toBe(true);

    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, log.channel_id])).toEqual([
      [chatCharge, 31, 18, channelId],
      [chatCharge, 31, 18, channelId],
    ]);
    expect(state.token.remain_quota).toBe(10_000_000 - 2 * chatCharge);
    expect(state.channels[0]?.used_quota).toBe(2 * chatCharge);
  });

  it('answers the Anthropic client through /v1/messages from a Cohere channel, streamed and not', async () => {
    await relay.channel({ type: 34, key: 'cohere-messages', baseUrl: fake.url, models: ['command-r-plus'] });
    const token = await relay.token();
    const client = new Anthropic({ apiKey: token.apiKey, baseURL: relay.baseUrl, maxRetries: 0, timeout: 20_000 });
    const message = await client.messages.create({ model: 'command-r-plus', max_tokens: 256, messages: [{ role: 'user', content: 'Tallest penguins?' }] });
    expect(message.content[0]).toMatchObject({ type: 'text', text: answer });
    expect(message.usage).toMatchObject({ input_tokens: 31, output_tokens: 18 });
    expect(fake.requests.at(-1)?.body).toMatchObject({ model: 'command-r-plus', message: 'Tallest penguins?', max_tokens: 256 });

    let streamed = '';
    const stream = client.messages.stream({ model: 'command-r-plus', max_tokens: 256, messages: [{ role: 'user', content: 'Tallest penguins?' }] });
    for await (const event of stream) if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') streamed += event.delta.text;
    expect(streamed).toBe(answer);
    expect((await stream.finalMessage()).usage).toMatchObject({ output_tokens: 18 });
    // command-r-plus: ratio 1.5: 49 × 1.5 = 73.5 → 74, twice.
    const state = await token.state([]);
    expect(state.logs.map((log) => log.quota)).toEqual([74, 74]);
  });

  it('reranks in the relay rerank shape, charging the locally counted query and documents', async () => {
    const channelId = await relay.channel({ type: 34, key: 'cohere-rerank', baseUrl: fake.url, models: ['rerank-english-v3.0'] });
    const token = await relay.token();
    const documents = [
      'Carson City is the capital city of the American state of Nevada.',
      'Saipan is the capital.',
      'Washington, D.C. is the capital of the United States.',
    ];
    const query = 'What is the capital of the United States?';
    const response = await request(`${relay.baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-english-v3.0', query, documents, top_n: 2 }),
    });
    expect(response.statusCode).toBe(200);
    const body = (await response.body.json()) as { model: string; results: { index: number; relevance_score: number }[] };
    expect(body.model).toBe('rerank-english-v3.0');
    expect(body.results.map((result) => result.index)).toEqual([2, 0]);
    expect(fake.requests.at(-1)?.body).toEqual({ model: 'rerank-english-v3.0', query, documents, top_n: 2, return_documents: true });
    const promptTokens = countTextTokens([query, ...documents].join('\n'));
    const state = await token.state([channelId]);
    expect(state.logs[0]).toMatchObject({ quota: promptTokens, prompt_tokens: promptTokens, completion_tokens: 0 });
  });

  it('disables a channel whose key Cohere rejects and answers from the next one', async () => {
    const ratios = relay.testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'command-r-auth': 0.25, 'command-r-limit': 0.25 }));
    const run = await callPastFailingChannel(
      relay,
      { type: 34, baseUrl: fake.url, model: 'command-r-auth', failingKey: fakeCohereKeys.invalid, backupKey: 'cohere-backup' },
      sayHi,
    );
    expect(run.answer.choices[0]?.message.content).toBe(answer);
    await expectServedByBackup(relay, run, 'disabled', { quota: chatCharge });
  });

  it('retries a rate-limited channel elsewhere and keeps it enabled', async () => {
    const seed = { type: 34, baseUrl: fake.url, model: 'command-r-limit', failingKey: fakeCohereKeys.rateLimited, backupKey: 'cohere-backup-2' };
    const run = await callPastFailingChannel(relay, seed, sayHi);
    expect(run.answer.choices[0]?.message.content).toBe(answer);
    await expectServedByBackup(relay, run, 'kept');
  });
});
