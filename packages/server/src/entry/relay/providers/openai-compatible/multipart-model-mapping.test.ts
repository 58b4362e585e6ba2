import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFile } from 'openai';
import { createTestApp, createTestUser, type TestApp } from '../../../../testing/test-app.ts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { FakeOpenAIUpstream } from '../../testing/fake-openai-upstream.ts';
import { ledgerState, listenLocally, openaiClient, seedChannel, seedToken } from '../../testing/relay-seed.ts';

const bytesOf = async (value: ReturnType<FormData['get']>): Promise<Buffer> => Buffer.from(await (value as File).arrayBuffer());

// Forwarding does not depend on the database: SQLite is enough.
const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('channel model mapping on multipart requests on $dialect', (database) => {
  let testApp: TestApp;
  let fake: FakeOpenAIUpstream;
  let baseUrl: string;
  let userId: number;
  let channelId: number;

  beforeAll(async () => {
    fake = new FakeOpenAIUpstream();
    await fake.start();
    testApp = await createTestApp(database);
    baseUrl = await listenLocally(testApp);
    userId = (await createTestUser(testApp, { quota: 10_000_000 })).id;
    channelId = await seedChannel(testApp, {
      key: 'mapped-upstream',
      baseUrl: fake.baseUrl,
      models: ['whisper-1', 'dall-e-2'],
      modelMapping: { 'whisper-1': 'whisper-large-v3', 'dall-e-2': 'gpt-image-1' },
    });
  });
  afterAll(async () => {
    await testApp.close();
    await fake.stop();
  });

  it('sends the mapped model with the audio file byte for byte, and bills the caller model', async () => {
    const token = await seedToken(testApp, userId);
    // A WAV-like header plus bytes that are not UTF-8 and that look like multipart line breaks.
    const audio = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x2d, 0x2d, 0x0d, 0x0a, 0x0d, 0x0a, 0xfe, 0x80])]);
    const client = openaiClient(baseUrl, token.apiKey);
    const transcription = await client.audio.transcriptions.create({ model: 'whisper-1', file: await toFile(audio, 'hello.wav'), language: 'en' });
    expect(transcription.text).toBe('hello from the audio file');

    const form = fake.requests.at(-1)?.form ?? new FormData();
    expect(fake.requests.at(-1)?.path).toBe('/v1/audio/transcriptions');
    expect(form.get('model')).toBe('whisper-large-v3');
    expect(form.get('language')).toBe('en');
    expect((await bytesOf(form.get('file'))).equals(audio)).toBe(true);

    const state = await ledgerState(testApp, { tokenId: token.id, userId, channelIds: [channelId] });
    expect(state.logs.at(-1)).toMatchObject({ model_name: 'whisper-1', channel_id: channelId });
    expect(JSON.parse(state.logs.at(-1)?.other ?? '{}')).toMatchObject({ is_model_mapped: true, upstream_model_name: 'whisper-large-v3' });
  });

  it('maps the model of an image edit whose caller named none (the default dall-e-2)', async () => {
    const token = await seedToken(testApp, userId);
    const picture = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
    await openaiClient(baseUrl, token.apiKey).images.edit({ image: await toFile(picture, 'boat.png', { type: 'image/png' }), prompt: 'paint the boat red' });
    const form = fake.requests.at(-1)?.form ?? new FormData();
    expect(form.get('model')).toBe('gpt-image-1');
    expect(form.get('prompt')).toBe('paint the boat red');
    expect((await bytesOf(form.get('image'))).equals(picture)).toBe(true);
  });
});
