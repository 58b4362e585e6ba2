import type { Worker } from 'node:cluster';
import type { SpendCoordinator } from '../billing/spend-coordinator.ts';
import { SpendLeaseBook, idleAccountMs, type LeaseGrant } from '../billing/spend-lease-book.ts';
import type { SpendMessage } from './cluster-messages.ts';
import type { PrimaryLink } from './primary-link.ts';

/**
 * The spending guard's book for the workers of one machine without Redis, kept by the primary: every
 * worker's leases on a balance count against it together (see billing/spend-lease-book.ts). A worker
 * asks only when its lease does not cover a request, so far from the edge there is no round trip.
 */
export function createPrimarySpendCoordinator(link: PrimaryLink): SpendCoordinator {
  return {
    acquire: (key, request) => link.request((id) => ({ sb: 'spend', id, op: 'acquire', key, request })) as Promise<LeaseGrant>,
    report: (key, report) => link.send({ sb: 'spend', id: 0, op: 'report', key, report }),
    adjust: (key, delta) => link.send({ sb: 'spend', id: 0, op: 'adjust', key, delta }),
  };
}

/** The primary's side: one book for the machine, each worker a holder; a worker that exits leaves its leases spent. */
export class PrimarySpendBook {
  private readonly book: SpendLeaseBook;
  private readonly sweeper: NodeJS.Timeout;

  constructor(now: () => number = Date.now) {
    this.book = new SpendLeaseBook(now);
    this.sweeper = setInterval(() => this.book.sweep(), idleAccountMs);
    this.sweeper.unref();
  }

  /** Handles one worker message; answers an acquire (undefined for the messages that expect none). */
  handle(worker: Worker, message: SpendMessage): LeaseGrant | undefined {
    const holder = String(worker.id);
    if (message.op === 'acquire') return this.book.acquire(holder, message.key, message.request);
    if (message.op === 'report') this.book.report(holder, message.key, message.report);
    else this.book.adjust(message.key, message.delta);
    return undefined;
  }

  workerGone(worker: Worker): void {
    this.book.holderGone(String(worker.id));
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
