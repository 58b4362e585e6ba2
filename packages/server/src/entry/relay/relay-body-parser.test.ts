import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRelayBody } from './relay-body-parser.ts';

const limit = 64 * 1024;
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The relay's body parser: every byte as sent, in one buffer, and Fastify's answers at its limits. */
describe('reading a relay body into one buffer', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', readRelayBody(limit));
    app.post('/echo', async (request) => {
      const body = request.body as Buffer;
      return { length: body.length, sha: sha(body) };
    });
    await app.ready();
  });
  afterAll(() => app.close());

  const body = Buffer.from(Array.from({ length: limit }, (_unused, index) => index % 251));

  it('keeps every byte with a Content-Length, and without one (a chunked upload)', async () => {
    const sized = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: body });
    expect(sized.json()).toEqual({ length: body.length, sha: sha(body) });
    // Chunks of many sizes, no Content-Length: gathered, then joined once.
    const pieces = [body.subarray(0, 1), body.subarray(1, 4000), body.subarray(4000)];
    const chunked = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: Readable.from(pieces) });
    expect(chunked.json()).toEqual({ length: body.length, sha: sha(body) });
    const empty = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json', 'content-length': '0' } });
    expect(empty.json()).toEqual({ length: 0, sha: sha(Buffer.alloc(0)) });
  });

  it('answers 413 past the limit, whether the length is declared or not', async () => {
    const tooLarge = Buffer.concat([body, Buffer.from('x')]);
    const declared = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: tooLarge });
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ code: 'FST_ERR_CTP_BODY_TOO_LARGE' });
    const streamed = await app.inject({
      method: 'POST',
      url: '/echo',
      headers: { 'content-type': 'application/json' },
      payload: Readable.from([body, Buffer.from('x')]),
    });
    expect(streamed.statusCode).toBe(413);
  });

  it('answers 400 when the body is longer or shorter than its Content-Length', async () => {
    const small = body.subarray(0, 1000);
    for (const declared of [small.length - 1, small.length + 1]) {
      const answer = await app.inject({
        method: 'POST',
        url: '/echo',
        headers: { 'content-type': 'application/json', 'content-length': String(declared) },
        payload: Readable.from([small]),
      });
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' });
    }
  });
});
