import cluster, { type Worker } from 'node:cluster';
import { Acknowledgements } from '../../core/platform/acknowledgements.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { ChangeMessage, WorkerChangeMessage } from './change-messages.ts';
import { isSwitchboardMessage, type Reply } from './cluster-messages.ts';

/** A worker as the relay sees it: what it is called in a warning, and how a message reaches it. */
export interface ChangeRecipient {
  readonly id: number;
  readonly pid: number | undefined;
  send(message: ChangeMessage): void;
}

/**
 * How long the primary waits for a live worker to confirm a change. A worker that dies is not waited
 * for (its exit ends the wait), so this bounds only one that is alive but slow or stuck, and longer
 * than between instances (changeConfirmTimeoutMs, 1 s): on a loaded 2-core machine (load average
 * 13-17) a worker whose re-read waited behind its batch write through the busy primary confirmed a
 * token change after more than 1 s, and the console answered while that worker still served the old
 * row. Below the worker's own wait for the primary's answer (5 s, cluster-change-bus.ts).
 */
export const workerConfirmTimeoutMs = 4_000;

/**
 * The primary's part of the change bus: repeats a worker's change to every worker that applies
 * changes (the sender too) and, for a confirmed change, resolves once each has applied it. A worker
 * that exits meanwhile is not waited for; one that stays silent is named in a warning after
 * `timeoutMs`, and the sender gets its answer all the same.
 */
export class PrimaryChangeRelay {
  private readonly subscribers = new Map<number, ChangeRecipient>();
  private readonly confirmations: Acknowledgements<number>;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private nextId = 1;

  constructor(logger: Logger, timeoutMs = workerConfirmTimeoutMs) {
    this.logger = logger;
    this.timeoutMs = timeoutMs;
    this.confirmations = new Acknowledgements(timeoutMs);
  }

  subscribed(recipient: ChangeRecipient): void {
    this.subscribers.set(recipient.id, recipient);
  }

  applied(recipientId: number, changeId: number): void {
    this.confirmations.acknowledge(changeId, recipientId);
  }

  gone(recipientId: number): void {
    this.subscribers.delete(recipientId);
    this.confirmations.leave(recipientId);
  }

  /** Sends the change to every subscriber; with `confirm`, resolves once all applied it (or the time is up). */
  async repeat(topic: string, payload: string, confirm: boolean): Promise<void> {
    const recipients = [...this.subscribers.values()];
    if (!confirm) {
      for (const recipient of recipients) this.deliver(recipient, { sb: 'change', topic, payload });
      return;
    }
    const id = this.nextId++;
    const confirmed = this.confirmations.expect(
      id,
      recipients.map((recipient) => recipient.id),
    );
    for (const recipient of recipients) this.deliver(recipient, { sb: 'change', id, topic, payload });
    const silent = await confirmed;
    if (silent.length === 0) return;
    const pids = silent.map((recipientId) => this.subscribers.get(recipientId)?.pid);
    this.logger.warn({ topic, payload, pids }, `workers did not confirm a change within ${this.timeoutMs} ms; answering without them`);
  }

  private deliver(recipient: ChangeRecipient, message: ChangeMessage): void {
    try {
      recipient.send(message);
    } catch {
      // Its channel closed between the exit and the event that tells us: it is gone.
      this.gone(recipient.id);
    }
  }
}

/** Serves the change bus of the machine's workers from the primary (the cluster's messages and exits). */
export function serveChangeRelay(logger: Logger): PrimaryChangeRelay {
  const relay = new PrimaryChangeRelay(logger);
  const recipientOf = (worker: Worker): ChangeRecipient => ({
    id: worker.id,
    pid: worker.process.pid,
    send: (message) => {
      if (!worker.isConnected()) throw new Error('worker disconnected');
      worker.send(message);
    },
  });
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isSwitchboardMessage(message)) return;
    const received = message as WorkerChangeMessage;
    if (received.sb === 'change-subscriber') relay.subscribed(recipientOf(worker));
    else if (received.sb === 'change-applied') relay.applied(worker.id, received.id);
    else if (received.sb === 'change') {
      const { id } = received;
      void relay.repeat(received.topic, received.payload, id !== undefined).then(() => {
        if (id !== undefined && worker.isConnected()) worker.send({ sb: 'reply', id } satisfies Reply);
      });
    }
  });
  cluster.on('disconnect', (worker) => relay.gone(worker.id));
  cluster.on('exit', (worker) => relay.gone(worker.id));
  return relay;
}
