import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import WebSocket from 'ws';
import { safeParseJson } from '../../../../core/platform/safe-json.ts';
import type { TransportOptions, UpstreamResponse } from '../../provider.ts';
import { isLastFrame, sparkFrameSchema, type SparkFrame } from './spark-api.ts';
import { classifySparkCode } from './spark-error-codes.ts';
import { mergeSparkFrames } from './merge-spark-frames.ts';

/** Largest refused-handshake body read (iFlytek's are a one-line JSON message). */
const maxRefusalBytes = 64 * 1024;

function jsonResponse(statusCode: number, body: unknown): UpstreamResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: Readable.from([Buffer.from(JSON.stringify(body))]) };
}

function namedError(name: string, message: string, code?: string): Error {
  return Object.assign(new Error(message), { name }, code ? { code } : {});
}

/**
 * One Spark WebSocket session: connect to the signed URL, send the request message, read the answer
 * frames until the last one (status 2), after which iFlytek closes the connection.
 *
 * `send()` resolves at the first frame for a stream (an HTTP-like 200 whose body is the frames as
 * server-sent events, which the stream converter reads), at the last frame otherwise (one JSON
 * body, the frames merged). A refused handshake resolves with its HTTP status and body; an error
 * frame before any answer resolves with the status its code maps to, so the relay can retry or
 * disable as for any HTTP vendor. A connection that closes before the last frame, silence longer
 * than the timeouts and the caller's abort reject `send()` or, once a stream is under way, destroy
 * its body with the error, which the relay reads as an interrupted stream.
 */
export class SparkSession {
  readonly #socket: WebSocket;
  readonly #options: TransportOptions;
  readonly #streaming: boolean;
  readonly #frames: SparkFrame[] = [];
  #resolve!: (response: UpstreamResponse) => void;
  #reject!: (error: Error) => void;
  #body: Readable | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #finished = false;
  readonly #onAbort = () => this.#fail(namedError('AbortError', 'the Spark request was aborted'));

  constructor(url: string, message: string, options: TransportOptions, streaming: boolean) {
    this.#options = options;
    this.#streaming = streaming;
    // `ws` rather than the global WebSocket: only it shows a refused handshake's status and body, the
    // one place iFlytek says that a key or signature is wrong.
    this.#socket = new WebSocket(url, { perMessageDeflate: false });
    this.#socket.on('unexpected-response', (_request, response: IncomingMessage) => this.#refused(response));
    this.#socket.on('open', () => this.#socket.send(message));
    this.#socket.on('message', (data: WebSocket.RawData) => this.#frame(String(data)));
    this.#socket.on('error', (error: Error) => this.#fail(error));
    this.#socket.on('close', () => this.#fail(namedError('Error', 'iFlytek closed the connection before the last frame', 'ERR_STREAM_PREMATURE_CLOSE')));
  }

  start(): Promise<UpstreamResponse> {
    const answer = new Promise<UpstreamResponse>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    if (this.#options.signal.aborted) this.#onAbort();
    else this.#options.signal.addEventListener('abort', this.#onAbort, { once: true });
    this.#wait(this.#options.headersTimeoutMs);
    return answer;
  }

  /** (Re)starts the silence timer; 0 waits forever. */
  #wait(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = ms > 0 ? setTimeout(() => this.#fail(namedError('TimeoutError', `iFlytek sent nothing for ${ms} ms`)), ms) : undefined;
  }

  #refused(response: IncomingMessage): void {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxRefusalBytes) chunks.push(chunk);
    });
    response.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const parsed = safeParseJson(text);
      this.#answer(jsonResponse(response.statusCode ?? 502, parsed.ok ? parsed.value : { message: text }));
    });
    response.once('error', (error: Error) => this.#fail(error));
  }

  #frame(text: string): void {
    if (this.#finished) return;
    const json = safeParseJson(text);
    const parsed = json.ok ? sparkFrameSchema.safeParse(json.value) : undefined;
    if (!parsed?.success) return this.#fail(namedError('Error', 'iFlytek sent a frame that is not a Spark answer'));
    const frame = parsed.data;
    const code = frame.header?.code ?? 0;
    const last = isLastFrame(frame) || code !== 0;
    if (this.#body) {
      // Under way: the frame (error frames too) goes to the stream converter.
      this.#wait(this.#options.bodyTimeoutMs);
      if (!this.#body.push(`data: ${text}\n\n`)) this.#socket.pause();
      if (last) this.#end();
      return;
    }
    if (code !== 0) return this.#answer(jsonResponse(classifySparkCode(code).status, json.ok ? json.value : {}));
    if (this.#streaming) {
      this.#body = new Readable({
        read: () => this.#socket.resume(),
        destroy: (error, callback) => {
          this.#close();
          callback(error);
        },
      });
      this.#body.push(`data: ${text}\n\n`);
      this.#resolve({ statusCode: 200, headers: { 'content-type': 'text/event-stream' }, body: this.#body });
      if (last) this.#end();
      else this.#wait(this.#options.bodyTimeoutMs);
      return;
    }
    this.#frames.push(frame);
    if (last) return this.#answer(jsonResponse(200, mergeSparkFrames(this.#frames)));
    this.#wait(this.#options.bodyTimeoutMs);
  }

  /** The whole answer (or a refusal) is known before any body was handed out. */
  #answer(response: UpstreamResponse): void {
    if (this.#finished) return;
    this.#close();
    this.#resolve(response);
  }

  /** The last frame of a stream: the body ends, iFlytek closes the socket (so do we). */
  #end(): void {
    this.#close();
    this.#body?.push(null);
  }

  #fail(error: Error): void {
    if (this.#finished) return;
    this.#close();
    if (this.#body) this.#body.destroy(error);
    else this.#reject(error);
  }

  #close(): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#timer);
    this.#options.signal.removeEventListener('abort', this.#onAbort);
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.close();
    else this.#socket.terminate();
  }
}
