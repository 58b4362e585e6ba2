import type { Dispatcher } from 'undici';
import { errors } from 'undici';
import type { AnswerLimits, WholeUpstreamAnswer } from '../provider.ts';

type DispatchController = Dispatcher.DispatchController;

/**
 * Collects one answer straight from undici's dispatch callbacks into a Buffer. A whole answer is
 * wanted in one piece, so the response stream, the promise and the listeners `request()` builds for
 * it were work per request with nothing to show for it, and what it left behind was promoted to the
 * old generation (bench/README.md, `bench:allocations`). Past its limit an answer is cut at the limit
 * and the rest is not waited for. An abort of `signal` fails the request with the signal's reason, as
 * `request()` did.
 */
class WholeAnswerCollector implements Dispatcher.DispatchHandler {
  readonly #resolve: (answer: WholeUpstreamAnswer) => void;
  readonly #reject: (error: Error) => void;
  readonly #signal: AbortSignal | undefined;
  readonly #limits: AnswerLimits;
  #controller: DispatchController | undefined;
  #statusCode = 0;
  #headers: Record<string, string | string[] | undefined> = {};
  #chunks: Buffer[] = [];
  #size = 0;
  #limit = 0;
  #settled = false;

  constructor(resolve: (answer: WholeUpstreamAnswer) => void, reject: (error: Error) => void, signal: AbortSignal | undefined, limits: AnswerLimits) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.#signal = signal;
    this.#limits = limits;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  readonly #onAbort = (): void => {
    const reason = abortReason(this.#signal);
    this.#fail(reason);
    this.#controller?.abort(reason);
  };

  onRequestStart(controller: DispatchController): void {
    this.#controller = controller;
    if (this.#settled) controller.abort(abortReason(this.#signal));
  }

  onResponseStart(_controller: DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    // An informational answer (103 Early Hints) comes before the real one, which follows.
    if (statusCode < 200) return;
    this.#statusCode = statusCode;
    this.#headers = headers;
    this.#limit = statusCode >= 400 ? this.#limits.errorBytes : this.#limits.answerBytes;
  }

  onResponseData(controller: DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    const room = this.#limit - this.#size;
    this.#size += chunk.length;
    if (chunk.length <= room) {
      this.#chunks.push(chunk);
      return;
    }
    if (room > 0) this.#chunks.push(chunk.subarray(0, room));
    this.#finish();
    controller.abort(new errors.ResponseExceededMaxSizeError(`answer past ${this.#limit} bytes`));
  }

  onResponseEnd(): void {
    this.#finish();
  }

  onResponseError(_controller: DispatchController | null, error: Error): void {
    this.#fail(error);
  }

  #finish(): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    this.#resolve({ statusCode: this.#statusCode, headers: this.#headers, body });
  }

  #fail(error: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#signal?.removeEventListener('abort', this.#onAbort);
    this.#reject(error);
  }
}

/** What `request()` rejects with when its signal aborts: the signal's reason, else undici's own abort error. */
function abortReason(signal: AbortSignal | undefined): Error {
  const reason: unknown = signal?.reason;
  return reason instanceof Error ? reason : new errors.RequestAbortedError();
}

/**
 * Sends one request on `dispatcher` and reads its whole answer (see WholeAnswerCollector). Rejects
 * with undici's errors (timeouts, connection failures) as `request()` does, or the abort's reason.
 */
export function dispatchForWholeAnswer(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  signal: AbortSignal | undefined,
  limits: AnswerLimits,
): Promise<WholeUpstreamAnswer> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    dispatcher.dispatch(options, new WholeAnswerCollector(resolve, reject, signal, limits));
  });
}
