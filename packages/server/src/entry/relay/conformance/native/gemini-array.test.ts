import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabases } from '../../../../testing/test-databases.ts';
import { startNativeRelay, type NativeRelay } from '../../providers/claude/testing/native-relay.ts';
import { fromRecorded, recordedEvents, recordedText, startRecordedUpstream, type RecordedUpstream } from './testing/recorded-answers.ts';

/**
 * `streamGenerateContent` without `?alt=sse`: Google's default framing, one JSON array written as it
 * grows (what google-genai and Gemini CLI read in some modes). On a Gemini channel each upstream
 * event must arrive as one array element, byte for byte, and the array must parse however the
 * stream ends.
 * @see https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
 */
const turn = {
  contents: [{ role: 'user', parts: [{ text: 'How many r are in strawberry?' }] }],
  generationConfig: { thinkingConfig: { includeThoughts: true } },
};
const arrayPath = '/v1beta/models/gemini-3-pro-preview:streamGenerateContent';

/** The array Google would send for a recording: its events' JSON as elements, `,\r\n` between them. */
function arrayOf(name: string): string {
  const lines = recordedText(`${name}.chunks.txt`)
    .split('\n')
    .filter((line) => line.trim() !== '');
  return `[${lines.join(',\r\n')}]`;
}

function ask(baseUrl: string, apiKey: string, path = arrayPath): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': apiKey },
    body: JSON.stringify(turn),
  });
}

/** Reads the body until `seen` holds for what arrived, then calls `then`, then reads the rest. */
async function readAcross(response: Response, seen: (text: string) => boolean, then: () => void): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  let acted = false;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    text += read.value;
    if (!acted && seen(text)) {
      acted = true;
      then();
    }
  }
  return text;
}

describe.each(testDatabases())('Gemini callers without alt=sse get the vendor events as a JSON array, on $dialect', (database) => {
  let relay: NativeRelay;
  let google: RecordedUpstream;
  let channelId: number;

  beforeAll(async () => {
    google = await startRecordedUpstream('google');
    relay = await startNativeRelay(database);
    await relay.testApp.context.options.set('ModelRatio', JSON.stringify({ 'gemini-3-pro-preview': 1 }));
    channelId = await relay.channel({ type: 24, key: 'gemini-array', baseUrl: google.url, models: ['gemini-3-pro-preview'] });
  });
  afterAll(async () => {
    await relay.close();
    await google.close();
  });

  // Quota at ratio 1: prompt + completion × 4 (Gemini 3 Pro's completion ratio); Gemini's completion
  // is candidates + thoughts, its prompt includes the search results read (toolUsePromptTokenCount).
  it.each([
    { name: 'google-reasoning-gemini3', keeps: '"thoughtSignature"', billed: [9 + 325 * 4, 9, 325] },
    { name: fromRecorded('google', 'google-tool-call'), keeps: '"functionCall"', billed: [29 + 60 * 4, 29, 60] },
    { name: 'google-grounding-docs-shaped', keeps: '"groundingSupports"', billed: [134 + 20 * 4, 134, 20] },
  ])('relays $name element for element, keeping $keeps, billed exactly the last usageMetadata', async ({ name, keeps, billed }) => {
    google.play(name);
    const token = await relay.token();
    const response = await ask(relay.baseUrl, token.apiKey);
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(text).toBe(arrayOf(name));
    expect(JSON.parse(text)).toEqual(recordedEvents(`${name}.chunks.txt`));
    expect(text).toContain(keeps);
    // Asked upstream as server-sent events, with the caller's body as written.
    const sent = google.requests.at(-1);
    expect([sent?.path, sent?.query.get('alt')]).toEqual([arrayPath, 'sse']);
    expect(sent?.body).toEqual(turn);

    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([billed]);
    expect(state.token.used_quota).toBe(billed[0]);
  });

  it('closes a stream cut short as a valid array ending with Google error object, billed the usage that arrived', async () => {
    google.playUntilCut('google-reasoning-gemini3', 1);
    const token = await relay.token();
    const response = await ask(relay.baseUrl, token.apiKey);
    expect(response.status).toBe(200);
    const first = recordedEvents('google-reasoning-gemini3.chunks.txt')[0];
    const text = await readAcross(
      response,
      (arrived) => arrived.includes('"responseId"'),
      () => google.cut(),
    );
    const elements = JSON.parse(text) as unknown[];
    expect(elements).toEqual([first, { error: { code: 500, message: expect.stringMatching(/stopped in the middle/), status: 'INTERNAL' } }]);

    // The first event's usage: 9 prompt, 13 candidates + 302 thoughts.
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[9 + 315 * 4, 9, 315]]);
    expect(JSON.parse(state.logs[0]?.other ?? '{}').stream_status).toBe('upstream_error');
  });

  it('bills a caller who leaves mid-array the usage that had arrived, as for SSE', async () => {
    google.playUntilCut('google-reasoning-gemini3', 1);
    const token = await relay.token();
    const leaving = new AbortController();
    const response = await fetch(`${relay.baseUrl}${arrayPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': token.apiKey },
      body: JSON.stringify(turn),
      signal: leaving.signal,
    });
    await readAcross(
      response,
      (arrived) => arrived.includes('"responseId"'),
      () => leaving.abort(),
    ).catch((error: unknown) => {
      if ((error as Error).name !== 'AbortError') throw error;
    });
    await vi.waitFor(async () => expect((await token.state([channelId])).logs).toHaveLength(1));
    google.cut();
    const state = await token.state([channelId]);
    expect(state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens])).toEqual([[9 + 315 * 4, 9, 315]]);
    expect(JSON.parse(state.logs[0]?.other ?? '{}').stream_status).toBe('client_gone');
    expect(state.token.used_quota).toBe(9 + 315 * 4);
  });

  it('stops on a sensitive word with Google error object as the last element, as the SSE stream does', async () => {
    const options = relay.testApp.context.options;
    await options.set('CheckSensitiveEnabled', 'true');
    await options.set('CheckSensitiveOnPromptEnabled', 'false');
    await options.set('CheckSensitiveOnCompletionEnabled', 'true');
    await options.set('StopOnSensitiveEnabled', 'true');
    await options.set('SensitiveWords', 'awbe');
    google.play('google-reasoning-gemini3');
    const token = await relay.token();
    const array = await (await ask(relay.baseUrl, token.apiKey)).text();
    const sse = await (await ask(relay.baseUrl, token.apiKey, `${arrayPath}?alt=sse`)).text();
    await options.set('CheckSensitiveEnabled', 'false');
    await options.set('CheckSensitiveOnCompletionEnabled', 'false');
    await options.set('SensitiveWords', 'test_sensitive');

    // The very first event ("…in strawberry.") holds the word: it is dropped, and the error alone
    // makes the array (it opens it, since nothing else did).
    const refusal = { error: { code: 400, message: expect.stringMatching(/^Sensitive words detected/), status: 'INVALID_ARGUMENT' } };
    expect(array.startsWith('[{"error":')).toBe(true);
    expect(JSON.parse(array)).toEqual([refusal]);
    expect(sse).toContain('"status":"INVALID_ARGUMENT"');
    // Charged as the SSE stream is: the upstream's usage of the stopped event (9 prompt, 13 + 302 out).
    const state = await token.state([channelId]);
    const charges = state.logs.map((log) => [log.quota, log.prompt_tokens, log.completion_tokens, JSON.parse(log.other ?? '{}').stream_status]);
    expect(charges).toEqual([
      [9 + 315 * 4, 9, 315, 'sensitive'],
      [9 + 315 * 4, 9, 315, 'sensitive'],
    ]);
  });
});
