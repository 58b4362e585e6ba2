import type { Logger } from '../../core/platform/logger.ts';
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
 * The codes of a write to a process at the other end of the channel that is gone: its end of the pipe
 * closed (EPIPE, ECONNRESET) or Node already knows the channel is closed. The sender learns it from
 * 'disconnect' (and, in the primary, 'exit') a moment later.
 */
const peerGoneCodes = new Set(['EPIPE', 'ECONNRESET', 'ERR_IPC_CHANNEL_CLOSED', 'ERR_IPC_DISCONNECTED']);

export function isPeerGone(error: Error): boolean {
  return peerGoneCodes.has((error as NodeJS.ErrnoException).code ?? '');
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
        if (error && !isPeerGone(error)) fail(error);
      }),
    onMessage: (listener) => void ipc.on('message', listener),
    onDisconnect: (listener) => void ipc.once('disconnect', listener),
  };
}

/**
 * The primary's side. A reply or a change sent to a worker whose channel closed a moment before (it
 * is exiting) fails the same way, and Node reports it as an 'error' on the worker, which nothing
 * handled: the primary crashed, and every worker with it. The worker's exit is handled where it is
 * noticed (replaced, its journal replayed by the next); any other failure is logged.
 */
export function watchWorkerChannel(worker: { on(event: 'error', listener: (error: Error) => void): unknown }, logger: Pick<Logger, 'error'>): void {
  worker.on('error', (error) => {
    if (!isPeerGone(error)) logger.error({ err: error }, 'a worker process reported an error');
  });
}
