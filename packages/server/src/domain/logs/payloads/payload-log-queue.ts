import { fromBoolean } from '../../../core/db/dialect.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import { storedBody, storedStream } from './payload-body.ts';
import type { PendingPayload } from './payload-capture.ts';
import type { PayloadLogRepository, PayloadRow } from './payload-log.repository.ts';

/** Rows per insert: bodies are large, a statement stays well under MySQL's packet limit. */
const rowsPerInsert = 20;
/** Answered requests waiting at most; past it new ones are dropped (counted), never the relay slowed. */
const maxPending = 500;

/** The row of one answered request: bodies redacted and capped to `maxBytes` each. */
export function payloadRow(pending: PendingPayload, maxBytes: number): PayloadRow {
  const request = storedBody(pending.request, pending.requestContentType, maxBytes);
  const response =
    pending.responseContentType === 'text/event-stream' && typeof pending.response === 'string'
      ? storedStream(pending.response, pending.responseCut, maxBytes)
      : storedBody(pending.response, pending.responseContentType, maxBytes);
  return {
    request_id: pending.requestId,
    user_id: pending.userId,
    token_id: pending.tokenId,
    created_at: pending.createdAt,
    is_stream: fromBoolean(pending.stream),
    request_body: request.text,
    response_body: response.text,
    request_truncated: fromBoolean(request.truncated),
    response_truncated: fromBoolean(response.truncated),
  };
}

/**
 * Payloads of answered requests, written in batches like log rows: queued by the relay, turned into
 * rows (parse, redact, cap, reassemble) and inserted on a timer and at shutdown, one slice at a time
 * with the event loop free between slices. A failed write is logged and dropped: payloads are a
 * debugging aid, and holding them would grow memory without bound.
 */
export class PayloadLogQueue {
  /** Payloads dropped because the queue was full. */
  dropped = 0;
  private pending: PendingPayload[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly repository: PayloadLogRepository;
  private readonly maxBytes: () => number;
  private readonly logger: Logger;

  constructor(dependencies: { repository: PayloadLogRepository; maxBytes: () => number; logger: Logger }) {
    this.repository = dependencies.repository;
    this.maxBytes = dependencies.maxBytes;
    this.logger = dependencies.logger;
  }

  get backlog(): number {
    return this.pending.length;
  }

  enqueue(payload: PendingPayload): void {
    if (this.pending.length >= maxPending) {
      this.dropped += 1;
      return;
    }
    this.pending.push(payload);
  }

  /** Writes everything queued so far; flushes never overlap. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeQueued());
    return this.flushing;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  private async writeQueued(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const maxBytes = this.maxBytes();
    for (let start = 0; start < batch.length; start += rowsPerInsert) {
      const rows: PayloadRow[] = [];
      for (const payload of batch.slice(start, start + rowsPerInsert)) {
        rows.push(payloadRow(payload, maxBytes));
        // Parsing and redacting a large body takes a moment: let requests in between rows.
        await new Promise((resolve) => setImmediate(resolve));
      }
      try {
        await this.repository.insertMany(rows);
      } catch (error) {
        this.logger.error({ err: error, rows: rows.length }, 'payload log write failed; these payloads are dropped');
      }
    }
  }
}
