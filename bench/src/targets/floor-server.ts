import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { Pool } from 'undici';
import { eventLoopResolutionMs } from '../../../packages/server/src/platform/metrics.ts';

/**
 * The floor: the least a Node gateway can do. Fastify takes the body as raw bytes, undici forwards it
 * over a pool sized for the stream concurrency, and the upstream body is piped back untouched.
 *
 * Usage: node floor-server.ts <port> <upstream base URL>
 */
const port = Number(process.argv[2]);
const upstream = new Pool(process.argv[3] ?? 'http://127.0.0.1:9001', { connections: 4096, pipelining: 1 });
const app = Fastify({ bodyLimit: 8 * 1024 * 1024 });
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

app.post('/v1/chat/completions', async (request, reply) => {
  const answer = await upstream.request({
    method: 'POST',
    path: '/v1/chat/completions',
    headers: { 'content-type': 'application/json', authorization: request.headers.authorization ?? '' },
    body: request.body as Buffer,
  });
  reply.code(answer.statusCode).header('content-type', answer.headers['content-type'] ?? 'application/json');
  return reply.send(answer.body);
});

// The same event-loop delay monitor Switchboard's /metrics reports, so the two stall figures compare.
const delay = monitorEventLoopDelay({ resolution: eventLoopResolutionMs });
delay.enable();
app.get('/event-loop-max', async () => {
  const maxMs = delay.max / 1e6;
  delay.reset();
  return { maxMs };
});

await app.listen({ port, host: '127.0.0.1' });
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
