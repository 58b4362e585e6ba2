import type { ServerResponse } from 'node:http';

/**
 * A signal that fires when the caller goes away before its answer is complete (connection closed,
 * request aborted). The relay stops waiting for the upstream then: a non-streamed call is aborted
 * (not retried elsewhere) and its hold refunded, a streamed one is billed for what was produced.
 */
export function watchCallerGone(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (response.destroyed) {
    controller.abort();
    return controller.signal;
  }
  response.once('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
