import { SpendLeaseBook, type DepartedCharge, type LeaseGrant, type LeaseReport, type LeaseRequest } from './spend-lease-book.ts';

/**
 * Where a process takes its leases on balances (see spend-lease-book.ts): its own book when it is the
 * only process, the primary's for the workers of one machine, Redis between instances. `acquire` is
 * synchronous when the book is in the process, so a lone process pays no promise per request.
 */
export interface SpendCoordinator {
  /**
   * The book outlives this process (the primary's, Redis): a charge is reported to it only once its
   * journal record is written (SpendGuard.settle). A book in this process dies with it, so it hears
   * of every charge at once.
   */
  readonly outlivesProcess?: boolean;
  acquire(key: string, request: LeaseRequest): LeaseGrant | Promise<LeaseGrant>;
  /** Fire and forget: a report that is lost only leaves the room smaller until the account is reopened. */
  report(key: string, report: LeaseReport): void;
  /** The balance was changed from outside by `delta` (top-up, console edit, refund), told once by the writer. */
  adjust(key: string, delta: number): void;
  /** This process journals its charges under `journal` (only the primary's book needs to know: it outlives its workers). */
  journalOpened?(journal: string): void;
  /** A dead process's journal was replayed at start: `charges` were not in the database (see SpendLeaseBook.settleDeparted). */
  journalReplayed?(journal: string, charges: readonly DepartedCharge[]): void;
}

/** The book of a process that is alone (WORKERS=1 without Redis, tests). */
export class LocalSpendCoordinator implements SpendCoordinator {
  readonly book: SpendLeaseBook;
  private readonly holder = 'self';

  constructor(now: () => number = Date.now) {
    this.book = new SpendLeaseBook(now);
  }

  acquire(key: string, request: LeaseRequest): LeaseGrant {
    return this.book.acquire(this.holder, key, request);
  }

  report(key: string, report: LeaseReport): void {
    this.book.report(this.holder, key, report);
  }

  adjust(key: string, delta: number): void {
    this.book.adjust(key, delta);
  }
}
