import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { safeParseJson } from '../../../core/platform/safe-json.ts';

export interface VendorRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
}

export interface VendorAnswer {
  readonly status: number;
  readonly json?: unknown;
  readonly bytes?: Buffer;
  readonly contentType?: string;
}

/** A recorded vendor answer from a `__fixtures__` folder, parsed fresh each time so tests may change it. */
export function fixture(folder: URL, name: string): Record<string, unknown> {
  const parsed = safeParseJson(readFileSync(new URL(name, folder), 'utf8'));
  if (!parsed.ok) throw new Error(`fixture ${name}: ${parsed.error}`);
  return parsed.value as Record<string, unknown>;
}

/** A local HTTP server on 127.0.0.1 for a fake task vendor; records every request it answers. */
export class FakeVendorServer {
  readonly requests: VendorRequest[] = [];
  private server: Server | undefined;
  private address = '';
  private readonly handle: (request: VendorRequest) => VendorAnswer;

  constructor(handle: (request: VendorRequest) => VendorAnswer) {
    this.handle = handle;
  }

  get baseUrl(): string {
    return this.address;
  }

  async start(): Promise<void> {
    this.server = createServer((incoming, response) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const parsed = text ? safeParseJson(text) : undefined;
        const request = {
          method: incoming.method ?? 'GET',
          path: (incoming.url ?? '/').split('?')[0] ?? '/',
          headers: incoming.headers,
          body: parsed?.ok ? parsed.value : text,
        };
        this.requests.push(request);
        const answer = this.handle(request);
        response.statusCode = answer.status;
        response.setHeader('content-type', answer.contentType ?? 'application/json');
        response.end(answer.bytes ?? JSON.stringify(answer.json ?? null));
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
