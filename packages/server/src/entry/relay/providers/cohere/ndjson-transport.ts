import { Transform, type TransformCallback } from 'node:stream';
import type { Transport, TransportOptions, UpstreamRequest, UpstreamResponse } from '../../provider.ts';
import { httpTransport } from '../../transport/http-transport.ts';

/** The accept header a streamed chat request carries; only its answer is re-framed. */
export const ndjsonAccept = 'application/stream+json';

const newline = 0x0a;

/**
 * Cuts newline-delimited JSON into lines and writes each as one server-sent event (`data: <line>`),
 * so the relay's SSE reader, its per-event converter and its timing rules apply unchanged. A line
 * split across chunks waits for its end; a last line without a newline is flushed at the end.
 */
export class NdjsonToSse extends Transform {
  private carried: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    const buffer = this.carried.length > 0 ? Buffer.concat([this.carried, chunk]) : chunk;
    let start = 0;
    let out = '';
    for (let end = buffer.indexOf(newline, start); end >= 0; end = buffer.indexOf(newline, start)) {
      out += frame(buffer.subarray(start, end));
      start = end + 1;
    }
    this.carried = start < buffer.length ? Buffer.from(buffer.subarray(start)) : Buffer.alloc(0);
    callback(null, out || undefined);
  }

  override _flush(callback: TransformCallback): void {
    const out = frame(this.carried);
    this.carried = Buffer.alloc(0);
    callback(null, out || undefined);
  }
}

function frame(line: Buffer): string {
  const text = line.toString('utf8').trim();
  return text ? `data: ${text}\n\n` : '';
}

/**
 * Cohere's v1 chat streams newline-delimited JSON (`application/stream+json`), not server-sent
 * events. This transport is plain HTTP that re-frames a successful streamed answer line by line
 * (chosen over teaching the pipeline a second stream format: the pipeline stays SSE-only, and the
 * converter still gets exactly one call per Cohere event). Errors and whole answers pass untouched.
 * @see https://docs.cohere.com/v1/docs/streaming
 */
export const ndjsonTransport: Transport = {
  async send(request: UpstreamRequest, options: TransportOptions): Promise<UpstreamResponse> {
    const response = await httpTransport.send(request, options);
    if (request.headers['accept'] !== ndjsonAccept || response.statusCode >= 400) return response;
    const body = response.body.pipe(new NdjsonToSse());
    // An upstream failure mid-stream must reach the reader as the failure it is.
    response.body.once('error', (error) => body.destroy(error));
    body.once('close', () => {
      if (!response.body.destroyed) response.body.destroy();
    });
    return { ...response, headers: { ...response.headers, 'content-type': 'text/event-stream' }, body };
  },
};
