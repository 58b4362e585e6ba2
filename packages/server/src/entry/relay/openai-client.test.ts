import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from './testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, openaiClient, seedChannel, seedToken } from './testing/relay-seed.ts';

const models = [
  'gpt-4o',
  'gpt-4o-mini',
  'text-embedding-3-small',
  'dall-e-2',
  'dall-e-3',
  'tts-1',
  'whisper-1',
  'text-moderation-stable',
  'rerank-english-v3.0',
  'alias-model',
];

describe.each(testDatabases())('the official OpenAI client through the relay on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;
  let userId: number;
  let token: { id: number; apiKey: string };
  let channelId: number;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    userId = (await createTestUser(testApp, { quota: 10_000_000 })).id;
    token = await seedToken(testApp, userId, { remainQuota: 5_000_000 });
    channelId = await seedChannel(testApp, { key: 'upstream-key', baseUrl: fake.baseUrl, models, modelMapping: { 'alias-model': 'gpt-4o-mini' } });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('answers a chat completion and charges exactly the upstream usage', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    const completion = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }] });
    expect(completion.choices[0]?.message.content).toBe('Hello from the fake upstream.');
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 6 });
    // The upstream got the caller's bytes with the channel key, never the caller's key.
    const forwarded = fake.requests.at(-1);
    expect(forwarded?.key).toBe('upstream-key');
    expect(forwarded?.body).toMatchObject({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Say hello' }] });

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const log = state.logs.at(-1);
    // gpt-4o: ratio 1.25, completion ratio 4 → (12 + 6 × 4) × 1.25 = 45
    expect(log).toMatchObject({ quota: 45, prompt_tokens: 12, completion_tokens: 6, model_name: 'gpt-4o', channel_id: channelId, user_id: userId });
    const other = JSON.parse(log?.other ?? '{}');
    expect(other).toMatchObject({ model_ratio: 1.25, completion_ratio: 4, group_ratio: 1, admin_info: { use_channel: [channelId] } });
    expect(typeof other.frt).toBe('number');
  });

  it('streams chunk by chunk, hides the forced usage chunk and ends with [DONE]', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Stream please' }], stream: true });
    let text = '';
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toBe('Hello from the fake upstream.');
    expect(sawUsage).toBe(false);
    // Usage was asked of the upstream although the caller did not ask for it.
    expect(fake.requests.at(-1)?.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });

    const raw = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stream: true }),
    });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    expect(raw.headers.get('x-oneapi-request-id')).toBeTruthy();
    const body = await raw.text();
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(body.match(/\[DONE\]/g)).toHaveLength(1);

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const log = state.logs.at(-1);
    // gpt-4o-mini: (12 + 6 × 4) × 0.075 = 2.7 → 3
    expect(log).toMatchObject({ quota: 3, prompt_tokens: 12, completion_tokens: 6, is_stream: expect.anything() });
  });

  it('passes the usage chunk to callers who ask for it', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    let usage: unknown;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 6 });
  });

  it('refuses an unpriced model clearly, then maps model names per channel once it is priced', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    const before = fake.requests.length;
    await expect(client.chat.completions.create({ model: 'alias-model', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({
      status: 400,
      code: 'model_price_error',
    });
    expect(fake.requests.length).toBe(before);
    expect((await openaiClient(baseUrl, token.apiKey).models.list()).data.map((model) => model.id)).not.toContain('alias-model');

    const ratios = testApp.context.options.getJson<Record<string, number>>('ModelRatio');
    await testApp.context.options.set('ModelRatio', JSON.stringify({ ...ratios, 'alias-model': 0.075 }));
    await client.chat.completions.create({ model: 'alias-model', messages: [{ role: 'user', content: 'Hi' }] });
    expect(fake.requests.at(-1)?.body?.model).toBe('gpt-4o-mini');
    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(JSON.parse(state.logs.at(-1)?.other ?? '{}')).toMatchObject({ is_model_mapped: true, upstream_model_name: 'gpt-4o-mini' });
    expect(state.logs.at(-1)?.model_name).toBe('alias-model');
  });

  it('bills pictures by count, size and quality at the per-call price', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    await client.images.generate({ model: 'dall-e-3', prompt: 'a wide lighthouse', n: 2, size: '1792x1024', quality: 'hd' });
    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    // 0.04 × 500,000 per picture × 2 pictures × 2 (wide) × 1.5 (hd, wide)
    expect(state.logs.at(-1)).toMatchObject({ model_name: 'dall-e-3', quota: 120_000 });
  });

  it('serves embeddings, images, audio, moderations, completions, responses and rerank', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    const embedding = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'vector me' });
    expect(embedding.data[0]?.embedding).toEqual([0.25, -0.5, 0.75]);

    const image = await client.images.generate({ model: 'dall-e-3', prompt: 'a lighthouse', n: 1 });
    expect(image.data?.[0]?.url).toBe('https://images.example.com/fake.png');

    const speech = await client.audio.speech.create({ model: 'tts-1', voice: 'alloy', input: 'Hello there' });
    expect(Buffer.from(await speech.arrayBuffer()).toString()).toBe('ID3fake-mp3-bytes');

    const transcription = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(Buffer.from('RIFFfake-wav'), 'hello.wav') });
    expect(transcription.text).toBe('hello from the audio file');

    const moderation = await client.moderations.create({ input: 'be nice' });
    expect(moderation.results[0]?.flagged).toBe(false);

    const completion = await client.completions.create({ model: 'gpt-4o-mini', prompt: 'Once upon' });
    expect(completion.choices[0]?.text).toBe('Hello from the fake upstream.');

    const response = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hi' });
    expect(response.output_text).toBe('Hello from the fake upstream.');
    const responseStream = await client.responses.create({ model: 'gpt-4o-mini', input: 'Hi', stream: true });
    let streamed = '';
    for await (const event of responseStream) if (event.type === 'response.output_text.delta') streamed += event.delta;
    expect(streamed).toBe('Hello from the fake upstream.');

    const rerank = await fetch(`${baseUrl}/v1/rerank`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'rerank-english-v3.0', query: 'q', documents: ['a', 'b'] }),
    });
    expect(((await rerank.json()) as { results: unknown[] }).results[0]).toEqual({ index: 1, relevance_score: 0.9 });

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const byModel = new Map(state.logs.map((log) => [log.model_name, log]));
    // dall-e-3 is priced per call: 0.04 × 500,000
    expect(byModel.get('dall-e-3')?.quota).toBe(20_000);
    expect(byModel.get('whisper-1')?.quota).toBeGreaterThan(0);
    expect(byModel.get('text-embedding-3-small')?.prompt_tokens).toBe(12);
  });

  it('edits pictures, makes variations and translates audio, each charged exactly', async () => {
    const client = openaiClient(baseUrl, token.apiKey);
    const png = () => toFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), 'lighthouse.png', { type: 'image/png' });

    const edit = await client.images.edit({ model: 'dall-e-2', image: await png(), prompt: 'add a boat', n: 2, size: '512x512' });
    expect(edit.data?.map((picture) => picture.url)).toEqual(['https://images.example.com/edit-1.png', 'https://images.example.com/edit-2.png']);
    expect(fake.requests.at(-1)?.path).toBe('/v1/images/edits');
    expect(fake.requests.at(-1)?.form?.get('prompt')).toBe('add a boat');

    const variation = await client.images.createVariation({ model: 'dall-e-2', image: await png(), size: '256x256' });
    expect(variation.data?.map((picture) => picture.url)).toEqual(['https://images.example.com/variation-1.png']);
    expect(fake.requests.at(-1)?.path).toBe('/v1/images/variations');

    const translation = await client.audio.translations.create({ model: 'whisper-1', file: await toFile(Buffer.from('RIFFfake-wav'), 'bonjour.wav') });
    expect(translation.text).toBe('hello in English');
    expect(fake.requests.at(-1)?.path).toBe('/v1/audio/translations');

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const [editLog, variationLog, translationLog] = state.logs.slice(-3);
    // dall-e-2 is priced per call, 0.02 × 500,000 per picture: 2 pictures × 0.45 (512²), then 1 × 0.4 (256²).
    expect(editLog).toMatchObject({ model_name: 'dall-e-2', quota: 9_000 });
    expect(variationLog).toMatchObject({ model_name: 'dall-e-2', quota: 4_000 });
    // whisper-1 (ratio 15, completion ratio 1) sends no usage: its 3-token answer is counted locally.
    expect(translationLog).toMatchObject({ model_name: 'whisper-1', prompt_tokens: 0, completion_tokens: 3, quota: 45 });
  });

  it('lists exactly the models of the key', async () => {
    const limited = await seedToken(testApp, userId, { modelLimits: ['gpt-4o-mini', 'tts-1'] });
    const all = await openaiClient(baseUrl, token.apiKey).models.list();
    const ids = all.data.map((model) => model.id);
    expect(ids).toEqual([...models].sort());
    const few = await openaiClient(baseUrl, limited.apiKey).models.list();
    expect(few.data.map((model) => model.id)).toEqual(['gpt-4o-mini', 'tts-1']);
    const one = await openaiClient(baseUrl, limited.apiKey).models.retrieve('tts-1');
    expect(one.id).toBe('tts-1');
    await expect(openaiClient(baseUrl, limited.apiKey).models.retrieve('gpt-4o')).rejects.toMatchObject({ status: 404 });
  });

  it('keeps quota charged equal to the logs on token, user and channel', async () => {
    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    const logged = state.logs.reduce((sum, log) => sum + log.quota, 0);
    expect(logged).toBeGreaterThan(0);
    expect(state.token.used_quota).toBe(logged);
    expect(state.token.remain_quota).toBe(5_000_000 - logged);
    expect(state.user.used_quota).toBe(logged);
    expect(state.user.quota).toBe(10_000_000 - logged);
    expect(state.user.request_count).toBe(state.logs.length);
    expect(state.channels[0]?.used_quota).toBe(logged);
  });
});
