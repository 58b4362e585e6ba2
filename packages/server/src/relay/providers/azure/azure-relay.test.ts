import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelStatus } from '@switchboard/contracts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { openaiClient } from '../../testing/relay-seed.ts';
import type { FakeServer } from '../claude/testing/fake-server.ts';
import { startNativeRelay, type NativeRelay } from '../claude/testing/native-relay.ts';
import { fakeAzureInvalidKey, startFakeAzure } from './testing/fake-azure.ts';

describe.each(testDatabases())('Azure OpenAI channels through the relay on $dialect', (database) => {
  let relay: NativeRelay;
  let fake: FakeServer;

  beforeAll(async () => {
    fake = await startFakeAzure();
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
    await fake.close();
  });

  it('calls the deployment URL with the api-key header and the default API version, streamed and not', async () => {
    const channelId = await relay.channel({ type: 3, key: 'azure-good', baseUrl: fake.url, models: ['gpt-4o-mini'] });
    const token = await relay.token();
    const client = openaiClient(relay.baseUrl, token.apiKey);
    const answer = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]?.message.content).toBe('Hello from Azure');
    expect(fake.requests.at(-1)?.url).toBe('/openai/deployments/gpt-4o-mini/chat/completions?api-version=2023-06-01-preview');
    expect(fake.requests.at(-1)?.headers['api-key']).toBe('azure-good');
    expect(fake.requests.at(-1)?.headers.authorization).toBeUndefined();

    const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hi' }], stream: true });
    let content = '';
    for await (const chunk of stream) content += chunk.choices[0]?.delta?.content ?? '';
    expect(content).toBe('Hello from Azure');
    // gpt-4o-mini: ratio 0.075, completion 4: (19 + 40) × 0.075 = 4.425 → 4, for each answer.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [4, 19, 10],
      [4, 19, 10],
    ]);
  });

  it('takes the API version from the channel and disables a channel with a rejected key', async () => {
    const invalid = await relay.channel({ type: 3, key: fakeAzureInvalidKey, baseUrl: fake.url, models: ['gpt-4o'], priority: 10 });
    const backup = await relay.channel({ type: 3, key: 'azure-backup', baseUrl: fake.url, models: ['gpt-4o'], priority: 0, other: '2024-10-21' });
    const token = await relay.token();
    const answer = await openaiClient(relay.baseUrl, token.apiKey).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }] });
    expect(answer.choices[0]?.message.content).toBe('Hello from Azure');
    expect(fake.requests.at(-1)?.url).toBe('/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21');
    await relay.waitForStatus(invalid, ChannelStatus.autoDisabled);
    const state = await token.state([invalid, backup]);
    expect(state.channels.find((channel) => channel.id === invalid)?.status).toBe(ChannelStatus.autoDisabled);
  });
});
