import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TraceSink {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT points at (the exporter appends /v1/traces). */
  readonly origin: string;
  /** Export requests and spans received so far (spans counted by their `"spanId"` keys, not decoded). */
  readonly received: { requests: number; spans: number };
  close(): Promise<void>;
}

/**
 * The tracing row's collector: accepts OTLP/HTTP exports and throws them away, so the row measures
 * what tracing costs the gateway (building, batching, serialising and sending spans), not a
 * collector. It runs in the bench's own process, off the gateway's core.
 */
export async function startTraceSink(): Promise<TraceSink> {
  const received = { requests: 0, spans: 0 };
  const server = createServer((request, response) => {
    let spans = 0;
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      for (let at = chunk.indexOf('"spanId"'); at >= 0; at = chunk.indexOf('"spanId"', at + 8)) spans += 1;
    });
    request.on('end', () => {
      received.requests += 1;
      received.spans += spans;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
