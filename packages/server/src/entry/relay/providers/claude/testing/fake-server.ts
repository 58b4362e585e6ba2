import { createServer, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2Session } from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { safeParseJson } from '../../../../../core/platform/safe-json.ts';
import { styledResponse, type WriteStyle } from '../../../testing/write-style.ts';

/** One request a fake upstream received. */
export interface ReceivedRequest {
  readonly method: string;
  /** Path with query string. */
  readonly url: string;
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly raw: Buffer;
  /** The JSON body, or undefined. */
  readonly body: Record<string, unknown> | undefined;
}

export interface FakeServer {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** How answers from now on reach the wire (see WriteStyle); `as-composed` at start. */
  setWriteStyle(style: WriteStyle): void;
  close(): Promise<void>;
}

/** What a fake writes to; Node's HTTP/1.1 and HTTP/2 compatibility responses both fit. */
export interface FakeResponse {
  writeHead(status: number, headers?: Record<string, string | number>): unknown;
  write(chunk: string | Buffer): unknown;
  end(chunk?: string | Buffer): unknown;
  readonly headersSent: boolean;
  destroy(): unknown;
}

/** Answers JSON with a status. */
export function sendJson(response: FakeResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Streams server-sent-event text in a few writes, as a vendor does. */
export function sendEventStream(response: FakeResponse, text: string): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const blocks = text.split(/(?<=\r?\n\r?\n)/);
  for (const block of blocks) response.write(block);
  response.end();
}

/**
 * A vendor stand-in on 127.0.0.1 (a free port): records every request and lets `handle` answer in
 * that vendor's wire format. `http2` serves cleartext HTTP/2 (what the AWS SDK speaks to Bedrock).
 */
export async function startFakeServer(
  handle: (request: ReceivedRequest, response: FakeResponse) => void | Promise<void>,
  options: { http2?: boolean } = {},
): Promise<FakeServer> {
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  const sessions = new Set<Http2Session>();
  let writeStyle: WriteStyle = 'as-composed';
  const onRequest = (incoming: IncomingMessage | Http2ServerRequest, wire: FakeResponse) => {
    const response = styledResponse(wire, writeStyle);
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const raw = Buffer.concat(chunks);
      const parsed = raw.length > 0 ? safeParseJson(raw.toString('utf8')) : undefined;
      const url = incoming.url ?? '/';
      const address = new URL(url, 'http://fake');
      const request: ReceivedRequest = {
        method: incoming.method ?? 'GET',
        url,
        path: address.pathname,
        query: address.searchParams,
        headers: incoming.headers,
        raw,
        body: parsed?.ok && parsed.value !== null && typeof parsed.value === 'object' ? (parsed.value as Record<string, unknown>) : undefined,
      };
      requests.push(request);
      void Promise.resolve(handle(request, response)).catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { error: String(error) });
        else response.destroy();
      });
    });
  };
  // The HTTP/2 compatibility response has the same methods with wider overloads.
  const server = options.http2 ? createHttp2Server((incoming, response) => onRequest(incoming, response as unknown as FakeResponse)) : createServer(onRequest);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    setWriteStyle(style) {
      writeStyle = style;
    },
    async close() {
      for (const session of sessions) session.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
