import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { PassThroughResponse } from '../provider.ts';
import { extractOpenAIStreamText, extractOpenAIUsage } from '../providers/openai-compatible/openai-usage.ts';
import { readFirstChunk, relayStream, type StreamOutcome } from './stream-response.ts';
import { countTextTokens } from './token-estimate.ts';

const passThrough: PassThroughResponse = { kind: 'pass-through', extractUsage: extractOpenAIUsage, extractStreamText: extractOpenAIStreamText };

function contentFrame(text: string): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta: { content: text }, finish_reason: null }], usage: null })}\n\n`;
}

function usageFrame(promptTokens: number, completionTokens: number): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens } })}\n\n`;
}

let server: Server | undefined;
afterEach(() => {
  server?.close();
  server = undefined;
});

/** An upstream whose connection breaks right after the chunk already read. */
const brokenUpstream = () =>
  new Readable({
    read() {
      this.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
    },
  });

/**
 * Relays `frames` (as the upstream's chunks) to a real HTTP caller; returns what it read and the
 * outcome. With `cut`, the upstream breaks after the first frame.
 */
async function relay(
  frames: string[],
  callerWantsUsage: boolean,
  options: {
    cut?: boolean;
    dialect?: 'chat' | 'responses';
    upstream?: () => Promise<{ body: Readable; first: Buffer }>;
    beforeEnd?: (outcome: StreamOutcome, response: ServerResponse) => Promise<void> | undefined;
  } = {},
): Promise<{ body: string; outcome: StreamOutcome }> {
  let outcome: Promise<StreamOutcome> | undefined;
  server = createServer((_request, response) => {
    const [first = '', ...rest] = frames;
    const upstream =
      options.upstream?.() ??
      Promise.resolve({ body: options.cut ? brokenUpstream() : Readable.from(rest.map((frame) => Buffer.from(frame))), first: Buffer.from(first) });
    outcome = upstream.then(({ body, first: firstChunk }) =>
      relayStream({
        upstream: body,
        abortUpstream: () => undefined,
        response,
        handling: passThrough,
        dialect: options.dialect ?? 'chat',
        callerWantsUsage,
        promptTokensEstimate: 7,
        context: { model: 'gpt-4o', upstreamModel: 'gpt-4o', requestId: 'test', createdAt: 1 },
        headers: {},
        firstChunk,
        beforeEnd: (ended) => options.beforeEnd?.(ended, response),
      }),
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const body = await (await fetch(`http://127.0.0.1:${port}/`)).text();
  if (!outcome) throw new Error('the relay did not run');
  return { body, outcome: await outcome };
}

/**
 * A server relaying `upstream` (its first chunk already read) to whoever calls it, for tests that
 * drive the caller's side themselves; `outcome` is there once a call came. `beforeEnd` records the
 * charge.
 */
async function serveRelay(
  upstream: Readable,
  firstChunk: Buffer,
  beforeEnd?: (outcome: StreamOutcome) => Promise<void>,
): Promise<{ port: number; outcome: () => Promise<StreamOutcome> | undefined }> {
  let outcome: Promise<StreamOutcome> | undefined;
  server = createServer((_request, response) => {
    outcome = relayStream({
      upstream,
      abortUpstream: () => upstream.destroy(),
      response,
      handling: passThrough,
      dialect: 'chat',
      callerWantsUsage: false,
      promptTokensEstimate: 7,
      context: { model: 'gpt-4o', upstreamModel: 'gpt-4o', requestId: 'test', createdAt: 1 },
      headers: {},
      firstChunk,
      ...(beforeEnd ? { beforeEnd } : {}),
    });
    // A failure is for the test to read through `outcome`, whenever it gets there.
    outcome.catch(() => undefined);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, outcome: () => outcome };
}

describe('relayStream', () => {
  it("holds the answer's last bytes until the charge's record is written", async () => {
    const seen: Array<{ reason: string; endedAtRecord: boolean; endedBeforeWritten: boolean }> = [];
    const { body } = await relay([contentFrame('Hello'), usageFrame(9, 1), 'data: [DONE]\n\n'], false, {
      // The journal's write completes a turn later; the answer must not end before it.
      beforeEnd: (outcome, response) => {
        const endedAtRecord = response.writableEnded;
        return new Promise((resolve) =>
          setImmediate(() => {
            seen.push({ reason: outcome.endReason, endedAtRecord, endedBeforeWritten: response.writableEnded });
            resolve();
          }),
        );
      },
    });
    expect(seen).toEqual([{ reason: 'done', endedAtRecord: false, endedBeforeWritten: false }]);
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it("breaks the caller's connection at once when the charge cannot be recorded, instead of leaving it waiting", async () => {
    const diskFull = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
    const upstream = Readable.from([Buffer.from(usageFrame(9, 1)), Buffer.from('data: [DONE]\n\n')]);
    const { port, outcome } = await serveRelay(upstream, Buffer.from(contentFrame('Hello')), () => Promise.reject(diskFull));
    const response = await fetch(`http://127.0.0.1:${port}/`);
    // The body read fails on the broken connection (before, it waited for an ending that never came).
    await expect(response.text()).rejects.toThrow();
    await expect(outcome()).rejects.toBe(diskFull);
  });

  it('sends an answer that arrives whole, with its ending, in one write once the charge is recorded', async () => {
    const frames = [contentFrame('Hello'), contentFrame(' world'), usageFrame(9, 2), 'data: [DONE]\n\n'];
    const seen: number[] = [];
    const wholeBody = async () => ({ body: new Readable({ read() {} }), first: Buffer.from(frames.join('')) });
    const { body, outcome } = await relay([], true, {
      upstream: wholeBody,
      // Nothing, not even the headers, has gone out when the charge is recorded: all goes in one write after.
      beforeEnd: (_outcome, response) => {
        seen.push(response.socket?.bytesWritten ?? -1);
        return undefined;
      },
    });
    expect(seen).toEqual([0]);
    expect(body).toBe(frames.join(''));
    // The upstream's body never ended here: [DONE] ended the answer, the rest is read and dropped.
    expect(outcome).toMatchObject({ usage: { promptTokens: 9, completionTokens: 2 }, endReason: 'done' });
  });

  it('forwards frames byte for byte and takes the usage frame as the count', async () => {
    const frames = [contentFrame('Hello'), contentFrame(' world'), 'data: {"not json"\n\n', usageFrame(9, 2), 'data: [DONE]\n\n'];
    const { body, outcome } = await relay(frames, true);
    expect(body).toBe(frames.join(''));
    expect(outcome).toMatchObject({ usage: { promptTokens: 9, completionTokens: 2 }, localCompletionTokens: 0, endReason: 'done' });
  });

  it('counts every word locally when no usage arrives, however long the answer', async () => {
    // Over 32 KB of frame data, so part is counted while streaming and the rest at the end.
    const words = Array.from({ length: 1500 }, (_, index) => `word${index} `);
    const { body, outcome } = await relay([...words.map(contentFrame), 'data: [DONE]\n\n'], true);
    expect(outcome.usage).toBeUndefined();
    // Counted in blocks, so a word cut at a block edge may add a token: within a few of the whole.
    expect(Math.abs(outcome.localCompletionTokens - countTextTokens(words.join('')))).toBeLessThanOrEqual(4);
    expect(outcome.localCompletionTokens).toBeGreaterThan(3000);
    // The caller asked for usage and got the local count in a closing usage chunk.
    expect(body).toContain(`"usage":{"prompt_tokens":7,"completion_tokens":${outcome.localCompletionTokens},`);
    expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
  });

  it('ends a cut stream with an error event, then [DONE] for chat callers and nothing more for responses callers', async () => {
    const interrupted =
      'data: {"error":{"message":"The upstream stopped in the middle of the answer","type":"upstream_error","code":"stream_interrupted"}}\n\n';
    const chat = await relay([contentFrame('Hello')], false, { cut: true });
    expect(chat.body).toBe(`${contentFrame('Hello')}${interrupted}data: [DONE]\n\n`);
    expect(chat.outcome).toMatchObject({ endReason: 'upstream_error', localCompletionTokens: 1 });
    server?.close();
    const responses = await relay([contentFrame('Hello')], false, { cut: true, dialect: 'responses' });
    expect(responses.body).toBe(`${contentFrame('Hello')}${interrupted}`);
  });

  it('ends a stream whose whole body came in its first chunk, though its end fired before anyone listened', async () => {
    const frames = [contentFrame('Hello'), usageFrame(9, 1), 'data: [DONE]\n\n'];
    // The body and its end in one read, as undici delivers a short answer: the first read takes
    // the chunk, and the end is emitted on the next tick, before the relay is listening.
    const wholeBody = async () => {
      const body = new Readable({ read() {} });
      body.push(Buffer.from(frames.join('')));
      body.push(null);
      const first = await readFirstChunk(body);
      if (!('chunk' in first)) throw new Error('no first chunk');
      await new Promise((resolve) => setImmediate(resolve));
      return { body, first: first.chunk };
    };
    const { body, outcome } = await relay([], true, { upstream: wholeBody });
    expect(body).toBe(frames.join(''));
    expect(outcome).toMatchObject({ usage: { promptTokens: 9, completionTokens: 1 }, endReason: 'done' });
  });

  it('keeps events whole when CRLF line ends are split at every byte', async () => {
    const events = [
      { type: 'response.output_text.delta', delta: 'Hel' },
      { type: 'response.output_text.delta', delta: 'lo' },
      { type: 'response.completed', response: { usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 } } },
    ];
    const crlf = events.map((event) => `event: ${event.type}\r\ndata: ${JSON.stringify(event)}\r\n\r\n`).join('');
    const bytes = [...Buffer.from(crlf)].map((byte) => String.fromCharCode(byte));
    const { body, outcome } = await relay(bytes, false, { dialect: 'responses' });
    // One event per upstream event, line ends normalised: no event split from its data, none empty.
    expect(body).toBe(events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join(''));
    expect(outcome.endReason).toBe('done');
  });

  it('gives the same answer and count wherever the upstream splits its bytes', async () => {
    // Frames forwarded undecoded and frames taken event by event must not differ: every cut of one
    // stream into two chunks, mid-character and mid-line included, answers and counts alike.
    const content = [contentFrame('你好'), contentFrame(' world'), ': ping\n\n', contentFrame('again')];
    const streams = [
      { bytes: Buffer.from([...content, usageFrame(9, 3), 'data: [DONE]\n\n'].join('')), callerWantsUsage: false },
      { bytes: Buffer.from([...content, 'data: [DONE]\n\n'].join('')), callerWantsUsage: true },
    ];
    for (const { bytes, callerWantsUsage } of streams) {
      const inChunks =
        (...chunks: Buffer[]) =>
        async () => ({ body: Readable.from(chunks.slice(1)), first: chunks[0] ?? Buffer.alloc(0) });
      server?.close();
      const whole = await relay([], callerWantsUsage, { upstream: inChunks(bytes) });
      for (let cut = 1; cut < bytes.length; cut += 7) {
        server?.close();
        const split = await relay([], callerWantsUsage, { upstream: inChunks(bytes.subarray(0, cut), bytes.subarray(cut)) });
        expect(split.body, `cut at byte ${cut}`).toBe(whole.body);
        expect(split.outcome).toEqual(whole.outcome);
      }
      expect(whole.body.startsWith(content.join(''))).toBe(true);
      expect(whole.body.endsWith('data: [DONE]\n\n')).toBe(true);
    }
  });

  it('sends the headers at once when the first chunk is only part of an event', async () => {
    const frame = contentFrame('Hello');
    const rest = new Readable({ read() {} });
    const { port, outcome } = await serveRelay(rest, Buffer.from(frame.slice(0, 10)));
    // fetch resolves on the headers; the rest of the event comes only after them.
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(answer.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    rest.push(Buffer.from(frame.slice(10)));
    rest.push(null);
    expect(await answer.text()).toBe(`${frame}data: [DONE]\n\n`);
    expect((await outcome())?.endReason).toBe('done');
  });

  it('stops reading the upstream while the caller reads nothing, and goes on when it reads again', async () => {
    const frame = Buffer.from(contentFrame('x'.repeat(1000)));
    let produced = 0;
    // An upstream with no end: only back-pressure keeps the relay from reading it into memory forever.
    const upstream = new Readable({
      read() {
        produced += 1;
        this.push(frame);
      },
    });
    const { port, outcome } = await serveRelay(upstream, frame);
    const caller = connect(port, '127.0.0.1');
    caller.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    caller.pause();
    // Reading stops once the sockets' buffers are full: the same count at two looks 50 ms apart.
    let lastLook = -1;
    const unchanged = () => {
      const same = produced === lastLook;
      lastLook = produced;
      return same;
    };
    await expect.poll(unchanged, { interval: 50, timeout: 10_000 }).toBe(true);
    expect(produced * frame.length).toBeLessThan(64 * 1024 * 1024);
    const stalledAt = produced;
    caller.on('data', () => undefined);
    caller.resume();
    await expect.poll(() => produced > stalledAt + 1000, { timeout: 10_000 }).toBe(true);
    caller.destroy();
    expect((await outcome())?.endReason).toBe('client_gone');
  });
});
