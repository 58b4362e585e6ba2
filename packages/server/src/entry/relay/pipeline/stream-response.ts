import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SseBlockSplitter } from '@switchboard/contracts';
import type { NormalizedUsage } from '../provider.ts';
import { asWrittenPrefixLength, endsAtEventBoundary } from './as-written-prefix.ts';
import { closingText, type StreamEndReason } from './stream-ending.ts';
import { StreamEventTranslator, type StreamEventOptions } from './stream-events.ts';

export type { StreamEndReason };

export interface StreamOutcome {
  /** Usage the upstream reported, if it did. */
  readonly usage: NormalizedUsage | undefined;
  /** Tokens of the text that reached us, counted locally (used when usage is missing). */
  readonly localCompletionTokens: number;
  readonly endReason: StreamEndReason;
}

export interface StreamRelayOptions extends StreamEventOptions {
  readonly upstream: Readable;
  /** Aborts the upstream request (caller gone). */
  readonly abortUpstream: () => void;
  readonly response: ServerResponse;
  readonly headers: Record<string, string>;
  /** The answer's content type (SSE unless the caller's dialect frames it otherwise: Gemini's JSON array). */
  readonly contentType?: string;
  /** The first upstream chunk, already read (it decided that this attempt succeeded). */
  readonly firstChunk: Buffer;
  /**
   * Receives the outcome before the answer's last bytes are written (the caller cannot have the whole
   * answer before its charge is recorded; a promise it returns is waited for), or, when the caller
   * left, before the promise resolves.
   */
  readonly beforeEnd?: (outcome: StreamOutcome) => Promise<void> | undefined;
  /** Receives every piece of text written to the caller (payload logging); absent when nobody listens. */
  readonly onCallerText?: ((text: string) => void) | undefined;
}

/**
 * Why a body stopped early: its idle time ran out (STREAMING_TIMEOUT: undici's body timeout, or a
 * TimeoutError from transports that watch it themselves, such as Bedrock's), or it failed.
 */
function failureReason(error: (Error & { code?: string }) | null | undefined): StreamEndReason {
  return error?.code === 'UND_ERR_BODY_TIMEOUT' || error?.name === 'TimeoutError' ? 'timeout' : 'upstream_error';
}

/**
 * Reads the first body chunk, so a failure before any byte can still go to another channel. It is
 * all the body has delivered by then (often the whole of an instant answer), so it goes out in one write.
 */
export function readFirstChunk(body: Readable): Promise<{ chunk: Buffer } | { end: true } | { error: Error }> {
  return new Promise((resolve) => {
    const cleanup = () => {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', onError);
    };
    const onReadable = () => {
      const chunk: Buffer | null = body.read();
      if (chunk === null) return;
      cleanup();
      resolve({ chunk });
    };
    const onEnd = () => {
      cleanup();
      resolve({ end: true });
    };
    const onError = (error: Error) => {
      cleanup();
      resolve({ error });
    };
    body.on('readable', onReadable);
    body.once('end', onEnd);
    body.once('error', onError);
  });
}

/**
 * Writes what one read gave the caller (untouched events, then translated text) as one socket write.
 * Joined into one Buffer: corking the response around two writes still sent the second as four
 * syscalls (chunk size, CRLF, data, CRLF; seen with strace on Node 24).
 */
function writeToCaller(response: ServerResponse, events: Buffer | undefined, text: string): boolean {
  if (!events) return !text || response.write(text);
  return response.write(text ? joined(events, text) : events);
}

function joined(events: Buffer, text: string): Buffer {
  return Buffer.concat([events, Buffer.from(text)]);
}

/**
 * Relays one server-sent-event stream to the caller as it arrives: whatever the upstream has
 * delivered becomes one write, with no buffering or delay beyond completing a split event.
 * Pass-through events are forwarded as the upstream wrote them (runs of ordinary events as the very
 * bytes, undecoded); only frames carrying usage are parsed (the others are counted locally only
 * when no usage arrives). `[DONE]` is always sent to chat-format callers, also after an error
 * event. Back-pressure stops reading the upstream; a caller who leaves aborts it, and what arrived
 * until then is what gets billed.
 */
export function relayStream(options: StreamRelayOptions): Promise<StreamOutcome> {
  return new StreamRelay(options).run();
}

/**
 * One stream on its way to the caller. `start` writes the head and listens; `readAvailable` and
 * `relayChunk` move each chunk across; `finish` settles the outcome once, with `endAnswer` (the caller
 * is there) or `callerLeft`.
 */
class StreamRelay {
  private readonly options: StreamRelayOptions;
  private readonly upstream: Readable;
  private readonly response: ServerResponse;
  private readonly decoder = new StringDecoder('utf8');
  private readonly splitter = new SseBlockSplitter();
  private readonly translator: StreamEventTranslator;
  /** The outcome is settled: nothing more is relayed, and a second ending is ignored. */
  private finished = false;
  /** The previous chunk ended an event and nothing waits in the decoder or the splitter. */
  private atEventBoundary = true;
  /** Something went to the caller (the headers with it). */
  private wroteAnswer = false;
  /** Reading stopped until the caller's socket drains (back-pressure). */
  private awaitingDrain = false;
  /** The last chunk's output, held to go out with the ending in one write (see holdForEnding). */
  private heldEvents: Buffer | undefined;
  private heldText = '';
  private settle: (ending: Promise<StreamOutcome>) => void = () => {};

  constructor(options: StreamRelayOptions) {
    this.options = options;
    this.upstream = options.upstream;
    this.response = options.response;
    this.translator = new StreamEventTranslator(options);
  }

  run(): Promise<StreamOutcome> {
    return new Promise<StreamOutcome>((resolve) => {
      this.settle = resolve;
      this.start();
    });
  }

  private start(): void {
    const { upstream, response, options } = this;
    // Closed before we started ('close' has fired and will not fire again): nothing is written, but
    // the first chunk is what the upstream produced for the caller, so it is counted.
    if (response.destroyed) {
      this.translateText(this.decoder.write(options.firstChunk));
      return this.finish('client_gone');
    }
    response.writeHead(200, {
      'content-type': options.contentType ?? 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      ...options.headers,
    });
    response.once('close', () => {
      if (!response.writableFinished) this.finish('client_gone');
    });
    upstream.on('readable', this.readAvailable);
    upstream.once('end', () => this.finish('done'));
    upstream.once('error', (error: Error) => this.finish(failureReason(error)));
    // Every way a body stops ends in 'close'; one that closes before its end was cut.
    upstream.once('close', () => this.finish(upstream.readableEnded ? 'done' : failureReason(upstream.errored)));
    this.relayChunk(options.firstChunk);
    if (this.finished) return;
    // The headers went out with the first chunk's events, in the same write; a first chunk that gave
    // the caller nothing yet (an event split in two) must not hold them back.
    if (!this.wroteAnswer) response.flushHeaders();
    // When the first chunk was the whole body, its end (or error) fired while readFirstChunk had
    // already let go and nobody listened: the body's state says so, and no event will come again.
    if (upstream.readableEnded) return this.finish('done');
    if (upstream.destroyed) return this.finish(failureReason(upstream.errored));
    this.readAvailable();
  }

  /**
   * Takes all the upstream has buffered at once: bytes come back as one chunk, so the events of one
   * socket read (an instant answer's 64 frames arrive in one) become one write to the caller, not
   * one each. Nothing is held back: it is what has arrived, read as soon as it has.
   */
  private readonly readAvailable = (): void => {
    if (this.awaitingDrain) return;
    for (let chunk: Buffer | null = this.upstream.read(); chunk !== null; chunk = this.upstream.read()) {
      this.relayChunk(chunk);
      if (this.finished || this.awaitingDrain) return;
    }
  };

  private readonly onDrain = (): void => {
    this.awaitingDrain = false;
    this.readAvailable();
  };

  private relayChunk(chunk: Buffer): void {
    const { events, text } = this.translateChunk(chunk);
    if (this.translator.stoppedBySensitiveWord) {
      if (text) this.response.write(text);
      return this.finish('sensitive');
    }
    if (events || text) this.wroteAnswer = true;
    if (this.translator.sawDone && this.atEventBoundary) return this.holdForEnding(events, text);
    if (writeToCaller(this.response, events, text)) return;
    // A destroyed response never drains: waiting for it would hold the upstream and the quota forever.
    if (this.response.destroyed) return this.finish('client_gone');
    // Unread, the upstream's buffer fills and undici stops reading its socket.
    this.awaitingDrain = true;
    this.response.once('drain', this.onDrain);
  }

  /**
   * What one chunk gives the caller: the leading events forwarded as the upstream wrote them (while
   * the translator allows it and the chunk starts at an event), then the translated text of the rest.
   */
  private translateChunk(chunk: Buffer): { events: Buffer | undefined; text: string } {
    const asWritten = this.atEventBoundary && this.translator.forwardsAsWritten ? asWrittenPrefixLength(chunk) : 0;
    const events = asWritten > 0 ? chunk.subarray(0, asWritten) : undefined;
    if (events) this.translator.passedAsWritten(events);
    const text = asWritten === chunk.length ? '' : this.translateText(this.decoder.write(events ? chunk.subarray(asWritten) : chunk));
    this.atEventBoundary = endsAtEventBoundary(chunk) && !this.splitter.holdsText;
    const onCallerText = this.options.onCallerText;
    if (onCallerText !== undefined) onCallerText(events ? events.toString() + text : text);
    return { events, text };
  }

  /** The caller's text for the events a chunk completes; none after a sensitive word stopped the answer. */
  private translateText(text: string): string {
    const { splitter, translator } = this;
    splitter.append(text);
    let out = '';
    for (let block = splitter.next(); block !== undefined; block = translator.stoppedBySensitiveWord ? undefined : splitter.next()) {
      out += translator.translate(block);
    }
    return out;
  }

  /**
   * `[DONE]` ended this chunk: the stream is over. Its output waits for the ending, which goes out
   * once the charge's journal line is written (the end of this turn of the event loop), so the answer
   * leaves in one write instead of two. The rest of the body is read and dropped, so the upstream
   * connection can serve the next request.
   */
  private holdForEnding(events: Buffer | undefined, text: string): void {
    this.heldEvents = events;
    this.heldText = text;
    this.finish('done');
    this.upstream.resume();
  }

  private finish(reported: StreamEndReason): void {
    if (this.finished) return;
    this.finished = true;
    this.upstream.off('readable', this.readAvailable);
    const answered = reported !== 'client_gone' && !this.response.destroyed;
    const ending = (answered ? this.endAnswer(reported) : this.callerLeft(reported)).catch((error: unknown) => {
      // The charge could not be recorded (the journal's disk, say): the answer must not look
      // complete, and the caller must not wait for an ending that never comes. The connection
      // breaks now; the error goes on to the pipeline, which refunds the hold.
      if (!this.response.writableEnded) this.response.destroy();
      throw error;
    });
    // Not 'done': the upstream is told to stop now, not once the ending is written.
    if (reported !== 'done' || this.translator.stoppedBySensitiveWord) this.options.abortUpstream();
    this.settle(ending);
  }

  /** The outcome (with usage reported, no tokenizing at the end of every stream). */
  private outcomeOf(endReason: StreamEndReason): StreamOutcome {
    const { translator } = this;
    return { usage: translator.usage, localCompletionTokens: translator.usage ? 0 : translator.localCompletionTokens(), endReason };
  }

  /**
   * Translates what is left and writes the ending, once `beforeEnd` has the outcome and what it
   * returned is done. Resolves when the last bytes are handed to the caller's socket.
   */
  private async endAnswer(reported: StreamEndReason): Promise<StreamOutcome> {
    const { translator, options } = this;
    let tail = '';
    if (reported !== 'sensitive') {
      tail = this.translateText(this.decoder.end());
      const rest = this.splitter.end();
      if (rest !== undefined && !translator.stoppedBySensitiveWord) tail += translator.translate(rest);
    }
    const endReason = translator.stoppedBySensitiveWord ? 'sensitive' : reported;
    tail += closingText(translator, endReason, options);
    const outcome = this.outcomeOf(endReason);
    const recorded = options.beforeEnd?.(outcome);
    if (recorded) await recorded;
    options.onCallerText?.(tail);
    // One socket write for the held chunk and the ending. (Not cork, write, end: Node 24's
    // ServerResponse drops what was written while corked when end() comes before uncork().)
    this.response.end(this.heldEvents ? joined(this.heldEvents, this.heldText + tail) : this.heldText + tail);
    return outcome;
  }

  /** The caller left: nothing more is written, the outcome says what the upstream produced until then. */
  private async callerLeft(reported: StreamEndReason): Promise<StreamOutcome> {
    const outcome = this.outcomeOf(reported);
    await this.options.beforeEnd?.(outcome);
    return outcome;
  }
}
