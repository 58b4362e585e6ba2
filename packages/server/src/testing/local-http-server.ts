import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type LocalHandler = (request: RecordedRequest) => { status?: number; json?: unknown; text?: string };

/**
 * A tiny HTTP server on 127.0.0.1 standing in for an outside service (a provider, a payment
 * gateway) in tests: routes by `METHOD path` (query excluded), records every request it answers.
 */
export async function startLocalServer(routes: Record<string, LocalHandler>): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const recorded = { method: incoming.method ?? 'GET', url: incoming.url ?? '/', headers: incoming.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const handler = routes[`${recorded.method} ${recorded.url.split('?')[0]}`];
      const answer = handler ? handler(recorded) : { status: 404, json: { error: 'not found' } };
      response.statusCode = answer.status ?? 200;
      if (answer.text !== undefined) {
        response.setHeader('content-type', 'text/plain');
        response.end(answer.text);
      } else {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(answer.json ?? {}));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
