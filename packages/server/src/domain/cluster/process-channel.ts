import type { WorkerMessage } from './cluster-messages.ts';
import type { PrimaryChannel } from './primary-link.ts';

/** The part of `process` a worker's channel uses (a stand-in in tests). */
export interface IpcEnd {
  readonly connected: boolean;
  send?(message: unknown, callback: (error: Error | null) => void): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  once(event: 'disconnect', listener: () => void): unknown;
}

/** What Node does with a failed write that has no callback: an 'error' nobody handles, so the worker crashes. */
function crash(error: Error): never {
  throw error;
}

/**
 * The codes of a write to a primary that is gone: its end of the pipe closed (EPIPE, ECONNRESET) or
 * Node already knows the channel is closed. The worker learns it from 'disconnect' a moment later.
 */
const primaryGoneCodes = new Set(['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED', 'ERR_IPC_DISCONNECTED']);

export function isPrimaryGone(error: Error): boolean {
  return primaryGoneCodes.has((error as NodeJS.ErrnoException).code ?? '');
}

/**
 * The channel over `ipc` (this worker's `process`). A send always passes a callback: without one, Node
 * reports a failed IPC write as an 'error' event on `process`, which nothing listens to, so a worker
 * whose primary went away between its last look at `connected` and the write (shutdown, a killed
 * primary) crashed with an unhandled EPIPE. A message to a primary that is gone reaches no one and
 * needs no one (a spending report is covered by the journal replay, billing/spend-lease-book.ts;
 * a request is rejected at 'disconnect'); any other failure goes to `fail`, which crashes as before.
 */
export function ipcChannel(ipc: IpcEnd, fail: (error: Error) => void = crash): PrimaryChannel {
  return {
    connected: () => ipc.connected,
    send: (message: WorkerMessage) =>
      void ipc.send?.(message, (error) => {
        if (error && !isPrimaryGone(error)) fail(error);
      }),
    onMessage: (listener) => void ipc.on('message', listener),
    onDisconnect: (listener) => void ipc.once('disconnect', listener),
  };
}
