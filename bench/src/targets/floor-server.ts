import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { eventLoopResolutionMs } from '../../../packages/server/src/core/platform/metrics.ts';

/**
 * The floor: the least a Node gateway can do. Plain `node:http` takes the body as raw bytes, undici
 * forwards it over a pool sized for the stream concurrency, and the upstream body is piped back
 * untouched. `fastify` as the third argument runs the same pass-through behind Fastify (the floor
 * of earlier rounds: see bench/README.md). A `-whole` kind (`http-whole`, `fastify-whole`) reads the
 * upstream answer whole and sends it as one buffer with its length, as Switchboard sends a non-stream
 * answer (`src/floors/floor-costs.ts` compares the four). `unmonitored` as the fourth argument leaves
 * out the event-loop delay monitor, as Switchboard runs without its metrics.
 *
 * Usage: node floor-server.ts <port> <upstream base URL> [http|fastify|http-whole|fastify-whole] [monitored|unmonitored]
 */
const port = Number(process.argv[2]);
const upstream = new Pool(process.argv[3] ?? 'http://127.0.0.1:9001', { connections: 4096, pipelining: 1 });
const kindArgument = process.argv[4] ?? 'http';
const kind = kindArgument.startsWith('fastify') ? 'fastify' : 'http';
const whole = kindArgument.endsWith('-whole');

// The same event-loop delay monitor Switchboard's /metrics reports, so the two stall figures compare.
const delay = process.argv[5] === 'unmonitored' ? undefined : monitorEventLoopDelay({ resolution: eventLoopResolutionMs });
delay?.enable();
function eventLoopMax(): string {
  const maxMs = (delay?.max ?? 0) / 1e6;
  delay?.reset();
  return JSON.stringify({ maxMs });
}

const forward = (authorization: string | undefined, body: Buffer) =>
  upstream.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: authorization ?? '' },
    body,
  });

if (kind === 'fastify') {
  const app = Fastify({ bodyLimit: 8 * 1024 * 1024 });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post('/v1/chat/completions', async (request, reply) => {
    const answer = await forward(request.headers.authorization, request.body as Buffer);
    reply.code(answer.statusCode).header('content-type', answer.headers['content-type'] ?? 'application/json');
    return reply.send(whole ? Buffer.from(await answer.body.arrayBuffer()) : answer.body);
  });
  app.get('/event-loop-max', async (_request, reply) => reply.type('application/json').send(eventLoopMax()));
  await app.listen({ port, host: '127.0.0.1' });
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/event-loop-max') {
      response.writeHead(200, { 'content-type': 'application/json' }).end(eventLoopMax());
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      forward(request.headers.authorization, chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))
        .then(
          async (answer) => {
            const contentType = String(answer.headers['content-type'] ?? 'application/json');
            if (!whole) {
              response.writeHead(answer.statusCode, { 'content-type': contentType });
              answer.body.pipe(response);
              return;
            }
            const bytes = Buffer.from(await answer.body.arrayBuffer());
            response.writeHead(answer.statusCode, { 'content-type': contentType, 'content-length': bytes.length }).end(bytes);
          },
          () => response.writeHead(502).end(),
        )
        // A whole answer cut while it was read: the caller's connection goes, the floor stays up.
        .catch(() => response.destroy());
    });
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
