import cluster from 'node:cluster';
import { ipcChannel } from './process-channel.ts';
import { isSwitchboardMessage, type BundledMessage, type ChangeMessage, type PrimaryMessage, type Reply, type WorkerMessage } from './cluster-messages.ts';

/** The primary process is gone (the worker is being stopped): no answer can come. */
export class PrimaryGoneError extends Error {
  constructor() {
    super('the primary process is gone');
  }
}

type Pending = { resolve(value: unknown): void; reject(error: Error): void; timer: NodeJS.Timeout | undefined };

/** The IPC channel to the primary: this process's own (`process.send`), or a stand-in in tests. */
export interface PrimaryChannel {
  connected(): boolean;
  send(message: WorkerMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

/**
 * A worker's line to the primary: requests that expect an answer (store calls, metrics) and the
 * change broadcasts. One listener for the process, created on first use.
 */
export class PrimaryLink {
  private static instance: PrimaryLink | undefined;
  private readonly pending = new Map<number, Pending>();
  private readonly changeListeners: Array<(message: ChangeMessage) => void> = [];
  private nextId = 1;
  private readonly channel: PrimaryChannel;
  /** Messages of this turn that wait for its end (sendSoon), oldest first. */
  private soon: BundledMessage[] = [];
  private soonTimer: NodeJS.Immediate | undefined;

  /** The link of this worker process; undefined in a process that is not a cluster worker. */
  static get(): PrimaryLink | undefined {
    if (!cluster.isWorker) return undefined;
    PrimaryLink.instance ??= new PrimaryLink();
    return PrimaryLink.instance;
  }

  /** A link over `channel`; a worker process uses its one link, `PrimaryLink.get()`. */
  constructor(channel: PrimaryChannel = ipcChannel(process)) {
    this.channel = channel;
    channel.onMessage((message: unknown) => {
      if (!isSwitchboardMessage(message)) return;
      const received = message as PrimaryMessage;
      if (received.sb === 'change') for (const listener of this.changeListeners) listener(received);
      else if (received.sb === 'reply') this.settle(received);
    });
    // No answer can come any more: whoever waits learns it now, not at a timeout (or never).
    channel.onDisconnect(() => {
      for (const waiting of this.pending.values()) {
        clearTimeout(waiting.timer);
        waiting.reject(new PrimaryGoneError());
      }
      this.pending.clear();
    });
  }

  onChange(listener: (message: ChangeMessage) => void): void {
    this.changeListeners.push(listener);
  }

  send(message: WorkerMessage): void {
    this.sendWaiting();
    this.sendNow(message);
  }

  /**
   * Sends a message that expects no answer at the end of this event-loop turn, together with the
   * others sent so in the turn (one IPC message instead of one each: the spending guard reports
   * every balance it holds at once, and a busy turn settles many requests' limits). Anything sent
   * later on this link goes after them, so the primary sees the messages in the order they were
   * made; a worker killed before the turn ends loses them as it would lose a message still in its
   * pipe, which the spending guard's journal replay covers (billing/spend-lease-book.ts).
   */
  sendSoon(message: BundledMessage): void {
    this.soon.push(message);
    this.soonTimer ??= setImmediate(() => this.sendWaiting());
  }

  private sendWaiting(): void {
    if (this.soonTimer) clearImmediate(this.soonTimer);
    this.soonTimer = undefined;
    if (this.soon.length === 0) return;
    const messages = this.soon;
    this.soon = [];
    this.sendNow(messages.length === 1 ? messages[0]! : { sb: 'bundle', messages });
  }

  private sendNow(message: WorkerMessage): void {
    // A worker whose primary is gone is being stopped; the message has no one to reach.
    if (this.channel.connected()) this.channel.send(message);
  }

  /**
   * Sends a request and waits for the primary's reply, bounded by `timeoutMs` so a stuck primary
   * cannot hang a request; `Infinity` waits for the answer, however long (a write that timed out
   * might still commit, and a retry would then write it twice), until the primary is gone.
   */
  request(build: (id: number) => WorkerMessage, timeoutMs = 5_000): Promise<unknown> {
    const id = this.nextId++;
    if (!this.channel.connected()) return Promise.reject(new PrimaryGoneError());
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
