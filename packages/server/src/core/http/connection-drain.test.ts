import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { answerGraceMs, drainConnectionsOnClose } from './connection-drain.ts';

/**
 * A server whose answer to /slow waits for `release`, and /stream's last part too (`slowArrived` says
 * either is in the handler); /fast answers at once.
 */
async function startServer(cutAfterMs = 60_000) {
  const waiting: Array<() => void> = [];
  let arrived: () => void = () => undefined;
  const slowArrived = new Promise<void>((resolve) => (arrived = resolve));
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const answer = () => {
      const text = `answer to ${request.url}`;
      response.writeHead(200, { 'content-type': 'text/plain', 'content-length': text.length }).end(text);
    };
    if (request.url === '/stream') {
      // Its headers and first part go out at once (a stream's do): the connection said keep-alive already.
      response.writeHead(200, { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }).write('first part, ');
      waiting.push(() => response.end('last part'));
      return arrived();
    }
    if (request.url !== '/slow') return answer();
    waiting.push(answer);
    arrived();
  });
  const cuts: number[] = [];
  const drain = drainConnectionsOnClose(server, { cutAfterMs, onCut: (count) => cuts.push(count) });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, drain, port, slowArrived, cuts, release: () => waiting.splice(0).forEach((answer) => answer()) };
}

const sockets: Socket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.destroy();
});

/** A raw client connection that collects what it receives and says when the server ended it. */
async function openConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await once(socket, 'connect');
  const ask = (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
  return { socket, ended, ask, received: () => received };
}

/** Whether `server.close()` calls back within `ms` (it waits for every connection to end). */
function closesWithin(server: ReturnType<typeof createServer>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    server.close(() => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Resolves once the connection has received `text`. */
async function receivedText(connection: Awaited<ReturnType<typeof openConnection>>, text: string): Promise<void> {
  while (!connection.received().includes(text)) await once(connection.socket, 'data');
}

describe('draining connections on close', () => {
  it('ends a connection that was opened and never sent a request, which server.close() alone waits for', async () => {
    const { server, drain, port } = await startServer();
    const silent = await openConnection(port);
    // The server has taken the connection before it is told to close.
    while ((await new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))))) < 1) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    drain.closeConnections();
    expect(await closesWithin(server, 5_000)).toBe(true);
    await silent.ended;
    expect(silent.received()).toBe('');
  });

  it('ends a kept-alive connection between two requests', async () => {
    const { server, drain, port } = await startServer();
    const kept = await openConnection(port);
    kept.ask('/fast');
    await receivedText(kept, 'answer to /fast');
    drain.closeConnections();
    expect(await closesWithin(server, 5_000)).toBe(true);
    await kept.ended;
  });

  it('lets an answer in flight finish whole, then ends its connection', async () => {
    const { server, drain, port, slowArrived, release } = await startServer();
    const busy = await openConnection(port);
    busy.ask('/slow');
    // The request is in the handler, unanswered, when the drain starts.
    await slowArrived;
    drain.closeConnections();
    const closed = closesWithin(server, 5_000);
    expect(busy.socket.destroyed).toBe(false);
    release();
    expect(await closed).toBe(true);
    await busy.ended;
    const [head, body] = busy.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(head).toMatch(/\r\nconnection: close(\r\n|$)/i);
    expect(body).toBe('answer to /slow');
  });

  it('ends a connection that arrives while the server closes', async () => {
    const { server, drain, port } = await startServer();
    drain.closeConnections();
    const late = await openConnection(port);
    late.ask('/fast');
    await late.ended;
    expect(late.received()).toBe('');
    expect(await closesWithin(server, 5_000)).toBe(true);
  });

  it('ends a connection whose streamed answer had sent its headers once that answer is whole', async () => {
    const { server, drain, port, slowArrived, release } = await startServer();
    const streaming = await openConnection(port);
    streaming.ask('/stream');
    await slowArrived;
    await receivedText(streaming, 'first part, ');
    drain.closeConnections();
    const closed = closesWithin(server, 5_000);
    release();
    expect(await closed).toBe(true);
    await streaming.ended;
    expect(streaming.received()).toMatch(/\r\nconnection: keep-alive\r\n/i);
    expect(streaming.received()).toContain('last part');
  });

  it('cuts the answers still going when the grace is over, and says how many', async () => {
    const { server, drain, port, slowArrived, cuts } = await startServer(200);
    const endless = await openConnection(port);
    endless.ask('/slow');
    await slowArrived;
    drain.closeConnections();
    const closed = closesWithin(server, 5_000);
    await endless.ended;
    expect(endless.received()).toBe('');
    expect(await closed).toBe(true);
    expect(cuts).toEqual([1]);
  });

  it('gives answers all of the shutdown timeout but its last quarter, at most 5 s', () => {
    expect(answerGraceMs(30)).toBe(25_000);
    expect(answerGraceMs(8)).toBe(6_000);
    expect(answerGraceMs(0)).toBe(0);
  });
});
