import cluster from 'node:cluster';
import { isSwitchboardMessage, type ChangeMessage, type PrimaryMessage, type Reply, type WorkerMessage } from './cluster-messages.ts';

type Pending = { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout | undefined };

/**
 * A worker's line to the primary: requests that expect an answer (store calls, metrics) and the
 * change broadcasts. One listener for the process, created on first use.
 */
export class PrimaryLink {
  private static instance: PrimaryLink | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly changeListeners: Array<(message: ChangeMessage) => void> = [];
  private nextId = 1;

  /** The link of this worker process; undefined in a process that is not a cluster worker. */
  static get(): PrimaryLink | undefined {
    if (!cluster.isWorker) return undefined;
    PrimaryLink.instance ??= new PrimaryLink();
    return PrimaryLink.instance;
  }

  private constructor() {
    process.on('message', (message: unknown) => {
      if (!isSwitchboardMessage(message)) return;
      const received = message as PrimaryMessage;
      if (received.sb === 'change') for (const listener of this.changeListeners) listener(received);
      else if (received.sb === 'reply') this.settle(received);
    });
    // No answer can come any more: whoever waits learns it now, not at a timeout (or never).
    process.once('disconnect', () => {
      for (const waiting of this.pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new Error('the primary process is gone'));
      }
      this.pending.clear();
    });
  }

  onChange(listener: (message: ChangeMessage) => void): void {
    this.changeListeners.push(listener);
  }

  send(message: WorkerMessage): void {
    // A worker whose primary is gone is being stopped; the message has no one to reach.
    if (process.connected) process.send?.(message);
  }

  /**
   * Sends a request and waits for the primary's reply, bounded by `timeoutMs` so a stuck primary
   * cannot hang a request; `Infinity` waits for the answer, however long (a write that timed out
   * might still commit, and a retry would then write it twice), until the primary is gone.
   */
  request(build: (id: number) => WorkerMessage, timeoutMs = 5_000): Promise<unknown> {
    const id = this.nextId++;
    if (!process.connected) return Promise.reject(new Error('the primary process is gone'));
    return new Promise((resolve, reject) => {
      const timer =
        timeoutMs === Number.POSITIVE_INFINITY
          ? undefined
          : setTimeout(() => {
              this.pending.delete(id);
              reject(new Error('the primary process did not answer'));
            }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.send(build(id));
    });
  }

  private settle(reply: Reply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (reply.error !== undefined) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.result);
  }
}
