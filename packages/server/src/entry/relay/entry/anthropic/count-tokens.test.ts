import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { countTextTokens } from '../../pipeline/token-estimate.ts';
import { seedToken } from '../../testing/relay-seed.ts';

const anthropicClient = (baseUrl: string, apiKey: string) => new Anthropic({ apiKey, baseURL: baseUrl, maxRetries: 0, timeout: 20_000 });
const weatherTool = {
  name: 'get_weather',
  description: 'Weather now',
  input_schema: { type: 'object' as const, properties: { location: { type: 'string' } } },
};

describe.each(testDatabases())('POST /v1/messages/count_tokens with the official Anthropic client on $dialect', (database) => {
  let relay: NativeRelay;

  beforeAll(async () => {
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
  });

  it('counts system, messages and tools as the relay counts a prompt, and bills nothing', async () => {
    const token = await relay.token();
    const before = await token.state([]);
    const counted = await anthropicClient(relay.baseUrl, token.apiKey).messages.countTokens({
      model: 'claude-sonnet-4-20250514',
      system: 'Be brief.',
      tools: [weatherTool],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        { role: 'assistant', content: 'Let me check.' },
        { role: 'user', content: [{ type: 'text', text: 'And in Paris?' }] },
      ],
    });
    // The converted request's prompt text: each message's text, then the tools as OpenAI functions.
    const tools = JSON.stringify([{ type: 'function', function: { name: 'get_weather', description: 'Weather now', parameters: weatherTool.input_schema } }]);
    expect(counted).toEqual({ input_tokens: countTextTokens(['Be brief.', 'Weather in Oslo?', 'Let me check.', 'And in Paris?', tools].join('\n')) });
    // No channel serves the model: counting needs none. Nothing moved, nothing logged.
    const after = await token.state([]);
    expect(after.logs).toHaveLength(0);
    expect(after.token).toEqual(before.token);
    expect(after.user).toEqual(before.user);
  });

  it('counts a long prompt in slices to exactly the whole count', async () => {
    const token = await relay.token();
    const text = Array.from({ length: 3000 }, (_, index) => `Line ${index}: the quick brown fox jumps over the lazy dog; 狐狸 ${index * 7}.`).join('\n');
    const counted = await anthropicClient(relay.baseUrl, token.apiKey).messages.countTokens({
      model: 'claude-sonnet-4-20250514',
      messages: [{ role: 'user', content: text }],
    });
    expect(text.length).toBeGreaterThan(100_000);
    expect(counted.input_tokens).toBe(countTextTokens(text));
  });

  it('answers refusals in Anthropic error format', async () => {
    const client = anthropicClient(relay.baseUrl, 'sk-not-a-real-key');
    const ask = { model: 'claude-sonnet-4-20250514', messages: [{ role: 'user' as const, content: 'Hi' }] };
    await expect(client.messages.countTokens(ask)).rejects.toBeInstanceOf(Anthropic.AuthenticationError);

    const token = await relay.token();
    const invalid = await anthropicClient(relay.baseUrl, token.apiKey)
      .messages.countTokens({ model: 'claude-sonnet-4-20250514' } as Anthropic.MessageCountTokensParams)
      .catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(Anthropic.BadRequestError);
    expect(invalid).toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('messages') } },
    });

    const limited = await seedToken(relay.testApp, relay.userId, { modelLimits: ['gpt-4o-mini'] });
    const refused = await anthropicClient(relay.baseUrl, limited.apiKey)
      .messages.countTokens(ask)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.PermissionDeniedError);
    expect(refused).toMatchObject({ error: { type: 'error', error: { type: 'permission_error' } } });
  });
});
