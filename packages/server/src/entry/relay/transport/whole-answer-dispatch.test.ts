import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchForWholeAnswer } from './whole-answer-dispatch.ts';

const limits = { answerBytes: 1000, errorBytes: 100 };

/** What the test upstream did with each request: how its answer ended (`finish` or `close` before the end). */
const answerEnds = new Map<string, Promise<'finish' | 'close'>>();

function answer(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? '';
  answerEnds.set(
    path,
    new Promise((resolve) => {
      response.once('finish', () => resolve('finish'));
      response.once('close', () => resolve(response.writableFinished ? 'finish' : 'close'));
    }),
  );
  if (path === '/chunks') {
    response.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
    response.write('{"parts":["one",');
    setImmediate(() => response.end('"two"]}'));
  } else if (path === '/error') {
    response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'x'.repeat(500) } }));
  } else if (path === '/large') {
    // Never ends: only a reader that stops at its limit and gives the connection up gets an answer.
    response.writeHead(200, { 'content-type': 'text/plain' });
    const part = 'y'.repeat(600);
    const more = () => {
      while (!response.destroyed) if (!response.write(part)) return response.once('drain', more);
    };
    more();
  } else if (path === '/hints') {
    response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"after":"hints"}');
  } else if (path === '/silent') {
    // Never answers: the request waits for its headers until the client gives up.
  } else {
    response.writeHead(404).end();
  }
}

let server: Server;
let origin: string;
const agent = new Agent({ connections: null, pipelining: 1 });

beforeAll(async () => {
  server = createServer(answer);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await agent.close();
  server.closeAllConnections();
  server.close();
});

const post = (path: string, extra: { headersTimeout?: number } = {}) => ({
  origin,
  path,
  method: 'POST' as const,
  body: '{}',
  headers: { 'content-type': 'application/json' },
  ...extra,
});

describe('dispatchForWholeAnswer', () => {
  it('collects an answer sent in parts into one buffer, with its status and headers', async () => {
    const answer = await dispatchForWholeAnswer(agent, post('/chunks'), undefined, limits);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['x-upstream']).toBe('yes');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body.toString('utf8'))).toEqual({ parts: ['one', 'two'] });
  });

  it('reads an error answer only up to the error limit, cut inside a part', async () => {
    const answer = await dispatchForWholeAnswer(agent, post('/error'), undefined, limits);
    expect(answer.statusCode).toBe(429);
    expect(answer.body.toString('utf8')).toBe(`{"error":{"message":"${'x'.repeat(limits.errorBytes - 21)}`);
  });

  it('cuts an answer past its limit at the limit and stops reading it', async () => {
    const answer = await dispatchForWholeAnswer(agent, post('/large'), undefined, limits);
    expect(answer.statusCode).toBe(200);
    expect(answer.body.toString('utf8')).toBe('y'.repeat(limits.answerBytes));
    expect(await answerEnds.get('/large')).toBe('close');
  });

  it('answers with the final status after an informational one (103 Early Hints)', async () => {
    const answer = await dispatchForWholeAnswer(agent, post('/hints'), undefined, limits);
    expect(answer.statusCode).toBe(200);
    expect(answer.body.toString('utf8')).toBe('{"after":"hints"}');
  });

  it("fails with the signal's reason when it aborts while the upstream is silent, and with it at once when already aborted", async () => {
    const controller = new AbortController();
    const pending = dispatchForWholeAnswer(agent, post('/silent'), controller.signal, limits);
    setTimeout(() => controller.abort(new Error('caller left')), 20);
    await expect(pending).rejects.toThrow('caller left');
    expect(await answerEnds.get('/silent')).toBe('close');

    await expect(dispatchForWholeAnswer(agent, post('/chunks'), AbortSignal.abort(), limits)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it("fails with undici's own errors: the headers timeout, a refused connection", async () => {
    await expect(dispatchForWholeAnswer(agent, post('/silent', { headersTimeout: 50 }), undefined, limits)).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, 'close');
    await expect(dispatchForWholeAnswer(agent, { ...post('/chunks'), origin: `http://127.0.0.1:${port}` }, undefined, limits)).rejects.toMatchObject({
      code: 'ECONNREFUSED',
    });
  });
});
