import { GoogleGenAI, type Content, type GenerateContentConfig } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { fromRecorded, recordedEvents, recordedJson, startRecordedUpstream, type RecordedUpstream } from './testing/recorded-answers.ts';

/**
 * Google's official client (`@google/genai`, what Gemini CLI is built on) through our `/v1beta`, to a
 * Gemini channel whose upstream replays recorded answers. The client is pointed at the relay on
 * 127.0.0.1 (`httpOptions.baseUrl`) and sends its key as `x-goog-api-key`, as Gemini CLI does.
 */

const model = 'gemini-3-pro-preview';

/** A Gemini CLI-shaped turn: the previous model turn sent back with its thought signatures, a tool, thoughts asked for. */
const contents: Content[] = [
  { role: 'user', parts: [{ text: 'How many r are in strawberry? Check the file first.' }] },
  {
    role: 'model',
    parts: [
      { text: 'Let me read it.', thoughtSignature: 'EpAICo0IAb4-text-signature' },
      { functionCall: { name: 'read_file', args: { path: 'word.txt' } }, thoughtSignature: 'CiQB0e2Kb1-call-signature' },
    ],
  },
  { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { content: 'strawberry' } } }] },
];
const config: GenerateContentConfig = {
  systemInstruction: { parts: [{ text: 'You are a coding agent.' }] },
  tools: [
    {
      functionDeclarations: [
        { name: 'read_file', description: 'Reads a file', parametersJsonSchema: { type: 'object', properties: { path: { type: 'string' } } } },
      ],
    },
  ],
  temperature: 1,
  thinkingConfig: { includeThoughts: true, thinkingBudget: -1 },
};

/** The candidates of recorded answers, for comparison with what the client parsed. */
const candidatesOf = (answers: readonly unknown[]) => answers.map((answer) => (answer as { candidates?: unknown }).candidates);

describe.each(testDatabases())('the official @google/genai client through /v1beta on $dialect', (database) => {
  let relay: NativeRelay;
  let google: RecordedUpstream;
  let channelId: number;

  beforeAll(async () => {
    google = await startRecordedUpstream('google');
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ [model]: 1 }));
    channelId = await relay.channel({ type: 24, key: 'gemini-genai', baseUrl: google.url, models: [model] });
  });
  afterAll(async () => {
    await relay.close();
    await google.close();
  });

  const client = (apiKey: string) => new GoogleGenAI({ apiKey, httpOptions: { baseUrl: relay.baseUrl } });

  it('streams a recorded Gemini 3 answer to generateContentStream, thought signatures kept, billed from the last usageMetadata', async () => {
    google.play('google-reasoning-gemini3');
    const token = await relay.token();
    const chunks = [];
    for await (const chunk of await client(token.apiKey).models.generateContentStream({ model, contents, config })) chunks.push(chunk);

    expect(candidatesOf(chunks)).toEqual(candidatesOf(recordedEvents('google-reasoning-gemini3.chunks.txt')));
    expect(chunks.map((chunk) => chunk.text ?? '').join('')).toContain('There are **3** "r"s in strawberry.');
    expect(chunks.some((chunk) => chunk.candidates?.[0]?.content?.parts?.some((part) => part.text !== undefined && part.thoughtSignature))).toBe(true);
    // The upstream got the CLI's turn, signatures included, on Google's streaming path.
    const sent = google.requests.at(-1);
    expect(sent?.path).toBe(`/v1beta/models/${model}:streamGenerateContent`);
    expect(sent?.body).toMatchObject({ contents, generationConfig: { temperature: 1, thinkingConfig: { includeThoughts: true, thinkingBudget: -1 } } });

    // 9 prompt, 23 candidates + 302 thoughts: (9 + 325 × 4) × 1 = 1309.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[1309, 9, 325]]);
  });

  it('answers generateContent with the recorded candidates and usage, billed with its thoughts', async () => {
    google.play('google-reasoning-gemini3');
    const token = await relay.token();
    const answer = await client(token.apiKey).models.generateContent({ model, contents, config });

    const recorded = recordedJson('google-reasoning-gemini3.json') as { candidates: unknown; usageMetadata: unknown };
    expect(answer.candidates).toEqual(recorded.candidates);
    expect(answer.usageMetadata).toEqual(recorded.usageMetadata);
    expect(answer.candidates?.[0]?.content?.parts?.[0]?.thoughtSignature).toBeTruthy();
    // 9 prompt, 29 candidates + 258 thoughts: (9 + 287 × 4) × 1 = 1157.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[1157, 9, 287]]);
  });

  it('hands the client a recorded function call with its signature, whole and streamed, each billed exactly', async () => {
    google.play(fromRecorded('google', 'google-tool-call'));
    const token = await relay.token();
    const whole = await client(token.apiKey).models.generateContent({ model, contents, config });
    expect(whole.functionCalls).toEqual([{ name: 'weather', args: { location: 'San Francisco' } }]);
    expect(whole.candidates?.[0]?.content?.parts?.[0]?.thoughtSignature).toMatch(/^EskgCsYgAb4/);

    const chunks = [];
    for await (const chunk of await client(token.apiKey).models.generateContentStream({ model, contents, config })) chunks.push(chunk);
    expect(chunks.flatMap((chunk) => chunk.functionCalls ?? [])).toEqual([{ name: 'weather', args: { location: 'San Francisco' } }]);
    expect(candidatesOf(chunks)).toEqual(candidatesOf(recordedEvents(`${fromRecorded('google', 'google-tool-call')}.chunks.txt`)));

    // Whole: 29 prompt, 15 candidates + 893 thoughts: 29 + 908 × 4 = 3661. Streamed: 29, 15 + 45: 29 + 60 × 4 = 269.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([
      [3661, 29, 908],
      [269, 29, 60],
    ]);
  });
});
