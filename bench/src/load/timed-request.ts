import type { Dispatcher } from 'undici';
import type { Target } from '../targets/target.ts';

/** What one request looked like from the client, in milliseconds from the moment it was dispatched. */
export interface Timing {
  status: number;
  /** Time to the first complete SSE frame (streams) or to the first body byte (non-stream). */
  firstMs: number;
  totalMs: number;
  /** SSE frames received (a frame ends with a blank line); 0 for a non-stream answer. */
  frames: number;
  /** True when the stream ended with `data: [DONE]`. */
  done: boolean;
  error?: string;
}

export interface TimedRequestOptions {
  /** Receives every gap between two chunks that completed at least one frame, in ms. */
  onGap?: (gapMs: number) => void;
  /** Abort the request after this long (a lost stream); the timing then carries an error. */
  timeoutMs?: number;
}

/**
 * Sends one request through undici's low-level dispatch API (no body stream objects, no promises per
 * chunk), so the client's own cost stays small beside the gateway it measures. SSE frames are counted by
 * scanning for the blank line that ends each one; a blank line split across chunks is handled.
 */
export function timedRequest(dispatcher: Dispatcher, target: Target, body: string, options: TimedRequestOptions = {}): Promise<Timing> {
  return new Promise((resolve) => {
    const isStream = body.includes('"stream":true');
    let timer: NodeJS.Timeout | undefined;
    const start = performance.now();
    let status = 0;
    let firstMs = -1;
    let lastFrameAt = 0;
    let frames = 0;
    let trailingNewline = false;
    let tail = '';
    let settled = false;
    let controllerRef: Dispatcher.DispatchController | undefined;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      const timing: Timing = { status, firstMs, totalMs: performance.now() - start, frames, done: tail.includes('[DONE]') };
      if (error !== undefined) timing.error = error;
      resolve(timing);
    };
    if (options.timeoutMs) {
      timer = setTimeout(() => {
        controllerRef?.abort(new Error('timeout'));
        finish('timeout');
      }, options.timeoutMs);
    }
    dispatcher.dispatch(
      { origin: target.origin, path: target.path, method: 'POST', headers: { 'content-type': 'application/json', ...target.headers }, body },
      {
        onRequestStart(controller) {
          controllerRef = controller;
        },
        onResponseStart(_controller, statusCode) {
          status = statusCode;
        },
        onResponseData(_controller, chunk) {
          const now = performance.now();
          let found = 0;
          let from = 0;
          if (trailingNewline && chunk[0] === 10) {
            found += 1;
            from = 1;
          }
          for (let at = chunk.indexOf('\n\n', from); at !== -1; at = chunk.indexOf('\n\n', at + 2)) found += 1;
          trailingNewline = chunk[chunk.length - 1] === 10;
          tail = chunk.toString('latin1', Math.max(0, chunk.length - 32));
          if (firstMs < 0 && (found > 0 || status !== 200 || !isStream)) firstMs = now - start;
          if (found > 0) {
            if (frames > 0 && options.onGap) options.onGap(now - lastFrameAt);
            frames += found;
            lastFrameAt = now;
          }
        },
        onResponseEnd() {
          finish();
        },
        onResponseError(_controller, error) {
          finish(error.message || error.name);
        },
      },
    );
  });
}
