import type { ServerResponse } from 'node:http';

/**
 * Collects the bytes a missed request's caller is sent, so a later hit replays exactly them. Past the
 * rule's size limit it stops collecting (the answer is then not stored).
 */
export class AnswerCapture {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private readonly maxBytes: number;
  kind: 'whole' | 'stream' = 'whole';
  contentType = '';

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get overflowed(): boolean {
    return this.size > this.maxBytes;
  }

  get body(): Buffer {
    return Buffer.concat(this.chunks);
  }

  /** A whole answer, as sent. */
  whole(body: Buffer | string, contentType: string): void {
    this.kind = 'whole';
    this.contentType = contentType;
    this.add(body);
  }

  /**
   * A stream: every byte written to the caller from here on is recorded. The stream writer has
   * several write points (first chunk, events, the held tail with its ending), so the response is
   * tapped rather than each of them; only a request a cache rule applies to is tapped.
   */
  tapStream(response: ServerResponse, contentType: string): void {
    this.kind = 'stream';
    this.contentType = contentType;
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    // Some responses' end() writes its chunk through this.write(): what end() sends is recorded once.
    let ending = false;
    const record = (chunk: unknown) => {
      if (!ending && (typeof chunk === 'string' || Buffer.isBuffer(chunk))) this.add(chunk);
    };
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      record(chunk);
      return write(chunk, ...rest);
    }) as typeof response.write;
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') record(chunk);
      ending = true;
      try {
        return end(chunk, ...rest);
      } finally {
        ending = false;
      }
    }) as typeof response.end;
  }

  /** Past the limit nothing more is copied and what was kept is let go: that answer is never stored. */
  private add(chunk: Buffer | string): void {
    if (this.overflowed) return;
    this.size += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
    if (this.overflowed) this.chunks.length = 0;
    else this.chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
}
