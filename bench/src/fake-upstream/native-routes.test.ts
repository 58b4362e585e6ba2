import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startProcess, waitForPort, type Started } from '../platform/processes.ts';
import { claudeMessagesBody, geminiGenerateBody, nativeModels } from '../targets/native-targets.ts';
import { nonStreamCompletionTokens, promptTokensFor } from './behaviours.ts';
import { readFakeStats } from './fake-stats.ts';

const recorded = fileURLToPath(new URL('../../../packages/server/src/entry/relay/conformance/recorded/', import.meta.url));
const recordedAnswer = (file: string) => JSON.parse(readFileSync(join(recorded, file), 'utf8')) as Record<string, unknown>;
const keysOf = (value: unknown) => Object.keys(value as Record<string, unknown>).sort();

let fake: Started;
let origin: string;
let logDir: string;

beforeAll(async () => {
  logDir = mkdtempSync(join(tmpdir(), 'bench-fake-'));
  const port = await freePort();
  fake = startProcess({
    name: 'fake upstream',
    command: process.execPath,
    args: [fileURLToPath(new URL('./fake-upstream.ts', import.meta.url)), String(port)],
    logFile: join(logDir, 'fake.log'),
  });
  await waitForPort(port, fake);
  origin = `http://127.0.0.1:${port}`;
});

afterAll(async () => {
  await fake?.stop();
  rmSync(logDir, { recursive: true, force: true });
});

/** The fields these tests read, in each vendor's wire names. */
interface WireAnswer {
  content: unknown;
  usage: Record<string, number>;
  candidates: unknown;
  usageMetadata: Record<string, unknown>;
  modelVersion: string;
}

async function post(path: string, headers: Record<string, string>, body: string) {
  const answer = await request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { status: answer.statusCode, contentType: answer.headers['content-type'], json: (await answer.body.json()) as WireAnswer };
}

describe('fake upstream, native routes', () => {
  it("answers Claude's POST /v1/messages in the recorded Messages shape, usage from the request size", async () => {
    const body = claudeMessagesBody();
    const answer = await post('/v1/messages', { 'x-api-key': 'claude-key', 'anthropic-version': '2023-06-01' }, body);
    const shape = recordedAnswer('anthropic/anthropic-text.json');
    expect(answer.status).toBe(200);
    expect(answer.contentType).toBe('application/json');
    expect(keysOf(answer.json)).toEqual(keysOf(shape));
    expect(keysOf(answer.json.usage)).toEqual(keysOf(shape.usage));
    expect(answer.json).toMatchObject({ type: 'message', role: 'assistant', model: nativeModels.claude, stop_reason: 'end_turn' });
    expect(answer.json.content).toEqual([{ type: 'text', text: expect.any(String) }]);
    const prompt = promptTokensFor(Buffer.byteLength(body));
    expect(answer.json.usage).toMatchObject({ input_tokens: prompt, output_tokens: nonStreamCompletionTokens });
    // Tallied under the vendor's key header as prompt:completion, what the reconciliation reads.
    expect((await readFakeStats(origin)).usage['claude-key']).toEqual({ [`${prompt}:${nonStreamCompletionTokens}`]: 1 });
  });

  it("answers Gemini's generateContent in the recorded shape, the model taken from the path", async () => {
    const body = geminiGenerateBody();
    const answer = await post(`/v1beta/models/${nativeModels.gemini}:generateContent`, { 'x-goog-api-key': 'gemini-key' }, body);
    const shape = recordedAnswer('google/google-reasoning.json');
    expect(answer.status).toBe(200);
    expect(keysOf(answer.json)).toEqual(keysOf(shape));
    // The recorded answer is a thinking model's: the bench answer has no thoughts to count.
    expect(keysOf(answer.json.usageMetadata)).toEqual(keysOf(shape.usageMetadata).filter((key) => key !== 'thoughtsTokenCount'));
    expect(answer.json.candidates).toEqual([{ content: { parts: [{ text: expect.any(String) }], role: 'model' }, finishReason: 'STOP', index: 0 }]);
    const prompt = promptTokensFor(Buffer.byteLength(body));
    expect(answer.json.usageMetadata).toMatchObject({
      promptTokenCount: prompt,
      candidatesTokenCount: nonStreamCompletionTokens,
      totalTokenCount: prompt + nonStreamCompletionTokens,
    });
    expect(answer.json.modelVersion).toBe(nativeModels.gemini);
    expect((await readFakeStats(origin)).usage['gemini-key']).toEqual({ [`${prompt}:${nonStreamCompletionTokens}`]: 1 });
  });
});
