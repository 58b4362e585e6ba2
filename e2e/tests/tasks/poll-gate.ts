import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Headers that belong to one hop and must not be copied onto the forwarded request or answer. */
const hopHeaders = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

function forwardable(headers: IncomingHttpHeaders): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !hopHeaders.has(name)) kept[name] = String(value);
  return kept;
}

/**
 * A forwarding server on 127.0.0.1 in front of a fake task vendor that holds every status poll (the
 * requests `isPoll` picks) until the test lets one through. The fakes move a task one step per poll,
 * so a browser test can look at each step (submitted, in progress, done) without racing the poller's
 * timer. Everything else (submits, images) goes straight through.
 */
export class PollGate {
  private server: Server | undefined;
  private address = '';
  private permits = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly target: string;
  private readonly isPoll: (method: string, path: string) => boolean;

  constructor(target: string, isPoll: (method: string, path: string) => boolean) {
    this.target = target;
    this.isPoll = isPoll;
  }

  get baseUrl(): string {
    return this.address;
  }

  /** Polls waiting at the gate now. */
  get held(): number {
    return this.waiting.length;
  }

  /** Lets the next poll through (a waiting one first). */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.permits += 1;
  }

  private pass(): Promise<void> {
    if (this.permits > 0) {
      this.permits -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async start(): Promise<void> {
    this.server = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const method = incoming.method ?? 'GET';
        const url = incoming.url ?? '/';
        const gate = this.isPoll(method, url.split('?')[0] ?? '/') ? this.pass() : Promise.resolve();
        void gate
          .then(async () => {
            const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
            const answer = await fetch(`${this.target}${url}`, { method, headers: forwardable(incoming.headers), body });
            const headers: Record<string, string> = {};
            answer.headers.forEach((value, name) => {
              if (!hopHeaders.has(name) && name !== 'content-encoding') headers[name] = value;
            });
            outgoing.writeHead(answer.status, headers);
            outgoing.end(Buffer.from(await answer.arrayBuffer()));
          })
          .catch((error: unknown) => {
            outgoing.writeHead(502, { 'content-type': 'text/plain' });
            outgoing.end(`poll gate: ${String(error)}`);
          });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Drops held polls (the server sees a failed poll and retries later) and stops listening. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
