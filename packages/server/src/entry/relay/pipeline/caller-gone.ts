import type { ServerResponse } from 'node:http';

/**
 * A signal that fires when the caller goes away before its answer is complete (connection closed,
 * request aborted). The relay stops waiting for the upstream then and aborts it, retrying nowhere:
 * before the request was sent the hold is refunded, after that the caller is billed for the prompt
 * and whatever the upstream produced until then.
 */
export function watchCallerGone(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (response.destroyed) {
    controller.abort();
    return controller.signal;
  }
  // `on`: a response closes once (`once` would wrap the listener again, on every request).
  response.on('close', () => {
    if (!response.writableFinished) controller.abort();
  });
  return controller.signal;
}
