import type { Worker } from 'node:cluster';
import type { SpendCoordinator } from '../billing/spend-coordinator.ts';
import { SpendLeaseBook, idleAccountMs, type DepartedCharge, type LeaseGrant } from '../billing/spend-lease-book.ts';
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
    journalOpened: (journal) => link.send({ sb: 'spend', id: 0, op: 'journal', journal }),
    journalReplayed: (journal, charges) => link.send({ sb: 'spend', id: 0, op: 'replayed', journal, charges }),
  };
}

/**
 * The primary's side: one book for the machine, each worker a holder. A worker that dies leaves its
 * leases held until the replacement that replays its journal says what it spent unreported.
 */
export class PrimarySpendBook {
  private readonly book: SpendLeaseBook;
  private readonly sweeper: NodeJS.Timeout;
  /** Each worker's quota journal, by name: holder id. */
  private readonly journals = new Map<string, string>();

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
    else if (message.op === 'adjust') this.book.adjust(message.key, message.delta);
    else if (message.op === 'journal') this.journals.set(message.journal, holder);
    else this.departedJournalReplayed(message.journal, message.charges);
    return undefined;
  }

  private departedJournalReplayed(journal: string, charges: readonly DepartedCharge[]): void {
    const holder = this.journals.get(journal);
    if (holder === undefined) return;
    this.journals.delete(journal);
    this.book.settleDeparted(holder, charges);
  }

  workerGone(worker: Worker): void {
    this.book.holderGone(String(worker.id));
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
