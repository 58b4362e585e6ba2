import type { Readable } from 'node:stream';
import { firstByteDeadlines } from './first-byte-deadlines.ts';

/** The first-byte limit of one attempt, when our own watch enforces it (see `attemptUpstream`). */
export interface FirstByteWatch {
  /** True once the limit ran out before a first byte. */
  readonly missed: boolean;
  /** A first byte came (or the attempt ends): the limit no longer applies. */
  arrived(): void;
  /** The body whose first chunk is still awaited, destroyed too when the limit runs out. */
  watch(body: Readable): void;
}

export const noFirstByteWatch: FirstByteWatch = { missed: false, arrived: () => undefined, watch: () => undefined };

/** Watches the limit in the process's shared deadline set (no timer of its own); aborts the request and a stream's body when it runs out. */
export function watchFirstByte(limitMs: number, startedAt: number, controller: AbortController): FirstByteWatch {
  let missed = false;
  let body: Readable | undefined;
  const deadline = {
    at: startedAt + limitMs,
    expire: () => {
      missed = true;
      controller.abort();
      body?.destroy();
    },
  };
  firstByteDeadlines.add(deadline);
  return {
    get missed() {
      return missed;
    },
    arrived: () => {
      firstByteDeadlines.remove(deadline);
      body = undefined;
    },
    watch: (watched) => {
      body = watched;
    },
  };
}
