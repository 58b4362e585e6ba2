import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus, parseSseText } from '@switchboard/contracts';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { countTextTokens } from '../../pipeline/token-estimate.ts';
import type { ConversionContext } from '../../provider.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import { readJsonFixture, readStreamFixture } from '../claude/testing/fixtures.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { convertChatRequest, convertChatResponse, createChatStreamConverter } from './convert-chat.ts';
import { parseLibraryError } from './parse-library-error.ts';
import { fakeLibraryId, fakeLibraryKeys, startFakeAiproxyLibrary } from './testing/fake-aiproxy-library.ts';

const fixtures = new URL('./__fixtures__/', import.meta.url);
const context: ConversionContext = { model: 'gpt-3.5-turbo', upstreamModel: 'gpt-3.5-turbo', requestId: 'req-1', createdAt: 1_700_000_000 };
const answer =
  'A refund is possible within 7 days of purchase.\n\n参考文档：\n1. [Refund policy](https://docs.example.com/refund)\n2. [Terms of service](https://docs.example.com/terms)\n';

describe('AI Proxy knowledge base conversions', () => {
  it('asks the last message of the conversation in the channel library', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Can I get a refund?' },
    ];
    expect(convertChatRequest({ messages }, 'gpt-3.5-turbo', fakeLibraryId, true)).toEqual({
      model: 'gpt-3.5-turbo',
      query: 'Can I get a refund?',
      libraryId: fakeLibraryId,
      stream: true,
    });
  });

  it('answers with the documents listed after the answer, whole or streamed', () => {
    expect(convertChatResponse(readJsonFixture(fixtures, 'ask.json'), context).body.choices[0]?.message.content).toBe(answer);
    expect(convertChatResponse({ success: true, data: { answer: 'Nested.', documents: [] } }, context).body.choices[0]?.message.content).toBe('Nested.');
    const converter = createChatStreamConverter(context);
    const chunks = parseSseText(readStreamFixture(fixtures, 'ask.chunks.txt')).flatMap((event) => converter.push(event)) as {
      choices: { delta: { content?: string }; finish_reason: string | null }[];
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe(answer);
    expect(chunks.at(-1)?.choices[0]?.finish_reason).toBe('stop');
  });

  it('disables the channel for a refused key only', () => {
    expect(parseLibraryError(401, readJsonFixture(fixtures, 'error-unauthorized.json'))).toMatchObject({ message: 'invalid api key', disablesChannel: true });
    expect(parseLibraryError(400, readJsonFixture(fixtures, 'error-library-not-found.json'))).toMatchObject({ code: '1001', disablesChannel: false });
  });
});

describe.each(testDatabases())('AI Proxy knowledge-base channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;
  const question = 'Can I get a refund?';

  beforeAll(async () => {
    fake = await startFakeAiproxyLibrary();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('answers the openai client whole and streamed, charging the locally counted question and answer', async () => {
    const channelId = await relay.channel({ type: 21, key: 'aiproxy-good', baseUrl: fake.url, models: ['gpt-3.5-turbo'], other: fakeLibraryId });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const whole = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: question }] });
    expect(whole.choices[0]?.message.content).toBe(answer);
    expect(fake.requests.at(-1)?.body).toEqual({ model: 'gpt-3.5-turbo', query: question, libraryId: fakeLibraryId, stream: false });
    expect(fake.requests.at(-1)?.headers.authorization).toBe('Bearer aiproxy-good');
    const stream = await client.chat.completions.create({ model: 'gpt-3.5-turbo', messages: [{ role: 'user', content: question }], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta.content ?? '';
    expect(content).toBe(answer);
    // gpt-3.5-turbo: ratio 0.25, completion ratio 3; no usage from the vendor, so both sides are counted here.
    const charge = Math.round((countTextTokens(question) + countTextTokens(answer) * 3) * 0.25);
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [charge, countTextTokens(question), countTextTokens(answer)],
      [charge, countTextTokens(question), countTextTokens(answer)],
    ]);
  });

  it('reports an unknown library as an error instead of an empty answer, and disables a refused key', async () => {
    await relay.channel({ type: 21, key: 'aiproxy-wrong-library', baseUrl: fake.url, models: ['gpt-4o-mini'], other: 'missing' });
    const token = await relay.token();
    const error = (await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }] })
      .catch((caught: unknown) => caught)) as { status: number; error: { message: string } };
    expect(error.status).toBe(400);
    expect(error.error.message).toMatch(/^library not found/);
    expect((await token.state([])).logs).toEqual([]);

    const refused = await relay.channel({ type: 21, key: fakeLibraryKeys.invalid, baseUrl: fake.url, models: ['gpt-4o'], other: fakeLibraryId });
    await openaiClient(relay.baseUrl, token.apiKey)
      .chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: question }] })
      .catch(() => undefined);
    await relay.waitForStatus(refused, ChannelStatus.autoDisabled);
  });
});
