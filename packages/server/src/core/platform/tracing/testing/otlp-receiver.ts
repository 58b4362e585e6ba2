import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { safeParseJson } from '../../safe-json.ts';

/** One span as a collector sees it, decoded from OTLP/JSON (ids in hex, attribute values unwrapped). */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP's numbering: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Readonly<Record<string, string | number | boolean>>;
  readonly events: readonly string[];
  /** 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  readonly resource: Readonly<Record<string, string | number | boolean>>;
}

export const spanKind = { internal: 1, server: 2, client: 3 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: OtlpAttribute[];
  events?: Array<{ name: string }>;
  status?: { code?: number };
}
interface ExportTraceServiceRequest {
  resourceSpans?: Array<{ resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

function unwrap(value: OtlpValue): string | number | boolean {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  return value.boolValue ?? '';
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((attribute) => [attribute.key, unwrap(attribute.value)]));
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
}

/**
 * A local OTLP/HTTP trace receiver, as a collector's `otlphttp` receiver speaks it: POST /v1/traces
 * with a JSON ExportTraceServiceRequest, answered with an empty ExportTraceServiceResponse.
 * @see https://opentelemetry.io/docs/specs/otlp/#otlphttp
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Every export request's headers and content type, to check what the exporter sends. */
  readonly exports: Array<{ path: string; contentType: string; headers: IncomingMessage['headers'] }> = [];
  private readonly server: Server;
  private address = '';

  constructor() {
    this.server = createServer((request, response) => {
      void bodyOf(request).then((body) => {
        this.exports.push({ path: request.url ?? '', contentType: String(request.headers['content-type'] ?? ''), headers: request.headers });
        const parsed = safeParseJson(body.toString('utf8'));
        if (!parsed.ok) {
          response.writeHead(400).end();
          return;
        }
        const decoded = parsed.value as ExportTraceServiceRequest;
        for (const resourceSpans of decoded.resourceSpans ?? []) {
          const resource = attributesOf(resourceSpans.resource?.attributes);
          for (const scope of resourceSpans.scopeSpans ?? []) for (const span of scope.spans ?? []) this.spans.push(this.decode(span, resource));
        }
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.address = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.address;
  }

  get url(): string {
    return this.address;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Polls until `find` returns something from the spans received: each round asks the app to export
   * what it has queued (`flush`), so nothing waits for the batch timer.
   */
  async waitFor<T>(flush: () => Promise<void>, find: (spans: readonly ReceivedSpan[]) => T | undefined, timeoutMs = 5000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await flush();
      const found = find(this.spans);
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error(`no matching spans within ${timeoutMs} ms; received: ${this.spans.map((span) => span.name).join(', ')}`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private decode(span: OtlpSpan, resource: Record<string, string | number | boolean>): ReceivedSpan {
    return {
      traceId: span.traceId,
      spanId: span.spanId,
      parentSpanId: span.parentSpanId ?? '',
      name: span.name,
      kind: span.kind,
      startTimeUnixNano: BigInt(span.startTimeUnixNano),
      endTimeUnixNano: BigInt(span.endTimeUnixNano),
      attributes: attributesOf(span.attributes),
      events: (span.events ?? []).map((event) => event.name),
      statusCode: span.status?.code ?? 0,
      resource,
    };
  }
}
