import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { eventsOf, recordedEvents, recordedText, startRecordedUpstream, type RecordedUpstream } from './testing/recorded-answers.ts';

/**
 * A Gemini CLI-shaped turn: the previous model turn sent back with its thought signatures (on a text
 * part and on a function call, as Google requires), a function declaration, thoughts asked for.
 * @see https://ai.google.dev/gemini-api/docs/thought-signatures
 */
const cliTurn = {
  contents: [
    { role: 'user', parts: [{ text: 'How many r are in strawberry? Check the file first.' }] },
    {
      role: 'model',
      parts: [
        { text: 'Let me read it.', thoughtSignature: 'EpAICo0IAb4-text-signature' },
        { functionCall: { name: 'read_file', args: { path: 'word.txt' } }, thoughtSignature: 'CiQB0e2Kb1-call-signature' },
      ],
    },
    { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { content: 'strawberry' } } }] },
  ],
  systemInstruction: { parts: [{ text: 'You are a coding agent.' }] },
  tools: [
    {
      functionDeclarations: [
        { name: 'read_file', description: 'Reads a file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      ],
    },
  ],
  generationConfig: { temperature: 1, thinkingConfig: { includeThoughts: true, thinkingBudget: -1 } },
};

async function generate(baseUrl: string, path: string, apiKey: string): Promise<{ status: number; contentType: string; text: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
    body: JSON.stringify(cliTurn),
  });
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe.each(testDatabases())('Gemini callers on Gemini channels get the vendor answer as sent, on $dialect', (database) => {
  let relay: NativeRelay;
  let google: RecordedUpstream;
  let channelId: number;

  beforeAll(async () => {
    google = await startRecordedUpstream('google');
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ 'gemini-3-pro-preview': 1 }));
    channelId = await relay.channel({ type: 24, key: 'gemini-recorded', baseUrl: google.url, models: ['gemini-3-pro-preview'] });
  });
  afterAll(async () => {
    await relay.close();
    await google.close();
  });

  it('streams a recorded Gemini 3 answer with the same events, thought signatures on text parts kept, billed from the last usageMetadata', async () => {
    google.play('google-reasoning-gemini3');
    const token = await relay.token();
    const answer = await generate(relay.baseUrl, '/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse', token.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toContain('text/event-stream');
    const events = eventsOf(answer.text);
    expect(events).toEqual(recordedEvents('google-reasoning-gemini3.chunks.txt'));
    expect(JSON.stringify(events)).toContain('"thoughtSignature"');
    // The upstream got the CLI's turn as written, signatures included.
    expect(google.requests.at(-1)?.path).toBe('/v1beta/models/gemini-3-pro-preview:streamGenerateContent');
    expect(google.requests.at(-1)?.body).toEqual(cliTurn);

    // The last usageMetadata: 9 prompt, 23 candidates + 302 thoughts. (9 + 325 × 4) × 1 = 1309.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[1309, 9, 325]]);
  });

  it('answers generateContent with the recorded body byte for byte, billed with its thoughts', async () => {
    google.play('google-reasoning-gemini3');
    const token = await relay.token();
    const answer = await generate(relay.baseUrl, '/v1beta/models/gemini-3-pro-preview:generateContent', token.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.text).toBe(recordedText('google-reasoning-gemini3.json'));
    // 9 prompt, 29 candidates + 258 thoughts: (9 + 287 × 4) × 1 = 1157.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[1157, 9, 287]]);
  });
});
