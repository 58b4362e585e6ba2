import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { countTextTokens } from '../../pipeline/token-estimate.ts';
import { seedToken } from '../../testing/relay-seed.ts';

/** A Gemini-format caller: plain fetch, as Google's REST examples do. */
async function countTokens(baseUrl: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

const contents = [
  { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
  { role: 'model', parts: [{ text: 'Let me check.' }] },
  { role: 'user', parts: [{ text: 'And in Paris?' }] },
];

describe.each(testDatabases())('Gemini models/{model}:countTokens on $dialect', (database) => {
  let relay: NativeRelay;

  beforeAll(async () => {
    relay = await startNativeRelay(database);
  });
  afterAll(async () => {
    await relay.close();
  });

  it('counts contents, or a whole generateContentRequest with its system instruction and tools, and bills nothing', async () => {
    const token = await relay.token();
    const before = await token.state([]);
    const path = `/v1beta/models/gemini-2.5-flash:countTokens?key=${token.apiKey}`;
    expect(await countTokens(relay.baseUrl, path, { contents })).toEqual({
      status: 200,
      body: { totalTokens: countTextTokens('Weather in Oslo?\nLet me check.\nAnd in Paris?') },
    });

    const declaration = { name: 'get_weather', description: 'Weather now', parameters: { type: 'object', properties: { location: { type: 'string' } } } };
    const whole = await countTokens(
      relay.baseUrl,
      '/v1beta/models/gemini-2.5-flash:countTokens',
      {
        generateContentRequest: {
          model: 'models/gemini-2.5-flash',
          systemInstruction: { parts: [{ text: 'Be brief.' }] },
          contents,
          tools: [{ functionDeclarations: [declaration] }],
        },
      },
      { 'x-goog-api-key': token.apiKey },
    );
    const tools = JSON.stringify([{ type: 'function', function: declaration }]);
    expect(whole).toEqual({
      status: 200,
      body: { totalTokens: countTextTokens(['Be brief.', 'Weather in Oslo?', 'Let me check.', 'And in Paris?', tools].join('\n')) },
    });

    // No channel serves the model: counting needs none. Nothing moved, nothing logged.
    const after = await token.state([]);
    expect(after.logs).toHaveLength(0);
    expect(after.token).toEqual(before.token);
    expect(after.user).toEqual(before.user);
  });

  it('answers refusals in Google error format', async () => {
    const path = '/v1beta/models/gemini-2.5-flash:countTokens';
    expect(await countTokens(relay.baseUrl, path, { contents })).toMatchObject({ status: 401, body: { error: { code: 401, status: 'UNAUTHENTICATED' } } });
    const token = await relay.token();
    const headers = { 'x-goog-api-key': token.apiKey };
    const both = await countTokens(relay.baseUrl, path, { contents, generateContentRequest: { contents } }, headers);
    expect(both).toMatchObject({
      status: 400,
      body: { error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringContaining('either contents or generateContentRequest') } },
    });
    expect(await countTokens(relay.baseUrl, path, {}, headers)).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    expect(await countTokens(relay.baseUrl, path, '{"contents": [', headers)).toMatchObject({ status: 400, body: { error: { status: 'INVALID_ARGUMENT' } } });
    const limited = await seedToken(relay.testApp, relay.userId, { modelLimits: ['gpt-4o-mini'] });
    expect(await countTokens(relay.baseUrl, path, { contents }, { 'x-goog-api-key': limited.apiKey })).toMatchObject({
      status: 403,
      body: { error: { code: 403, status: 'PERMISSION_DENIED' } },
    });
  });
});
