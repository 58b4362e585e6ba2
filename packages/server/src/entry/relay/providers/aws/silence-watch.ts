/**
 * STREAMING_TIMEOUT for a Bedrock stream. The AWS SDK's own `requestTimeout` ends a silent HTTP/2
 * stream by closing it quietly, so the events read so far would look like a complete answer; the
 * stream call runs without it and this watch stands in: it aborts the call when no answer comes
 * within `headersMs`, or no event within `bodyMs` after that, and remembers that it did, so the
 * body can fail with the TimeoutError the relay reads as a timeout. 0 disables a wait.
 */
export class SilenceWatch {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal;
  readonly #bodyMs: number;
  readonly #onCallerAbort = () => this.#controller.abort();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired = false;

  constructor(caller: AbortSignal, headersMs: number, bodyMs: number) {
    this.#caller = caller;
    this.#bodyMs = bodyMs;
    if (caller.aborted) this.#controller.abort();
    else caller.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.#timer = this.#start(headersMs);
  }

  /** Aborted by the caller's signal or by silence. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get expired(): boolean {
    return this.#expired;
  }

  /** Something arrived: the wait starts again, for the next event. */
  sawActivity(): void {
    this.#timer?.refresh();
  }

  /** The answer began: from now on the wait is the one between events. */
  answered(): void {
    clearTimeout(this.#timer);
    this.#timer = this.#start(this.#bodyMs);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#caller.removeEventListener('abort', this.#onCallerAbort);
  }

  /** The error a silent stream fails with (the SDK's name for its own timeouts). */
  timeoutError(): Error {
    return Object.assign(new Error(`Bedrock sent nothing for ${this.#bodyMs} ms (STREAMING_TIMEOUT)`), { name: 'TimeoutError' });
  }

  #start(ms: number): ReturnType<typeof setTimeout> | undefined {
    if (ms <= 0) return undefined;
    return setTimeout(() => {
      this.#expired = true;
      this.#controller.abort();
    }, ms);
  }
}
