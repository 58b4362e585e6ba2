import type { Worker } from 'node:cluster';
import { SpendLeaseBook, idleAccountMs, type DepartedCharge, type LeaseGrant } from '../billing/spend-lease-book.ts';
import type { SpendMessage } from './cluster-messages.ts';

/**
 * How long an acquire near the edge waits for a dead worker's journal to say what its lease spent:
 * the replacement replays it as it starts, well within this.
 */
export const departedWaitMs = 2_000;

interface ParkedAcquire {
  readonly key: string;
  readonly acquire: () => void;
  timer?: NodeJS.Timeout;
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
  /** Acquires near the edge of a balance that a dead worker's lease still holds part of. */
  private readonly parked = new Set<ParkedAcquire>();

  constructor(now: () => number = Date.now) {
    this.book = new SpendLeaseBook(now);
    this.sweeper = setInterval(() => this.book.sweep(), idleAccountMs);
    this.sweeper.unref();
  }

  /** Handles one worker message; an acquire is answered through `reply`, now or once it may be decided. */
  handle(worker: Worker, message: SpendMessage, reply: (grant: LeaseGrant) => void): void {
    const holder = String(worker.id);
    if (message.op === 'acquire') {
      const { key, request } = message;
      const acquire = () => reply(this.book.acquire(holder, key, request));
      // Near the edge, a dead worker's lease may still hold the room this request needs, most of it
      // unspent: refused now, a paying call would be turned away a moment before the room comes back.
      // (A worker that dies while it waits takes no lease: nobody would ever give it back.)
      if (this.book.awaitsDeparted(key) && (this.book.room(key) ?? Infinity) < request.worst) this.park(key, () => worker.isConnected() && acquire());
      else acquire();
      return;
    }
    if (message.op === 'report') this.book.report(holder, message.key, message.report);
    else if (message.op === 'adjust') this.book.adjust(message.key, message.delta);
    else if (message.op === 'journal') this.journals.set(message.journal, holder);
    else this.departedJournalReplayed(message.journal, message.charges);
  }

  private departedJournalReplayed(journal: string, charges: readonly DepartedCharge[]): void {
    const holder = this.journals.get(journal);
    if (holder === undefined) return;
    this.journals.delete(journal);
    this.book.settleDeparted(holder, charges);
    for (const entry of [...this.parked]) if (!this.book.awaitsDeparted(entry.key)) this.unpark(entry);
  }

  /** Decides the acquire once the dead worker's lease is settled, or after departedWaitMs whatever happened. */
  private park(key: string, acquire: () => void): void {
    const entry: ParkedAcquire = { key, acquire };
    entry.timer = setTimeout(() => this.unpark(entry), departedWaitMs);
    this.parked.add(entry);
  }

  private unpark(entry: ParkedAcquire): void {
    if (!this.parked.delete(entry)) return;
    clearTimeout(entry.timer);
    entry.acquire();
  }

  workerGone(worker: Worker): void {
    this.book.holderGone(String(worker.id));
  }

  close(): void {
    clearInterval(this.sweeper);
    for (const entry of this.parked) clearTimeout(entry.timer);
    this.parked.clear();
  }
}
