import { logRowText, type LogEntry } from '../logs/log-row.ts';
import type { ChargeRecorder } from './charge-journal.ts';
import { HeldQuota } from './held-quota.ts';
import { PendingDeltas, type TokenDelta, type UserDelta } from './pending-deltas.ts';
import { LocalSpendCoordinator } from './spend-coordinator.ts';
import { SpendGuard, tokenBalanceKey, userBalanceKey, type BalanceClaim, type BalanceKey, type ClaimOutcome, type ClaimRequest } from './spend-guard.ts';

/** The in-memory balance of a token (the relay's token cache record). */
export interface TokenBalance {
  readonly id: number;
  /** Its key in the spending guard (`t:<id>`), built once with the record rather than per request. */
  readonly balanceKey?: BalanceKey;
  remainQuota: number;
  usedQuota: number;
  readonly unlimited: boolean;
}

/** The in-memory balance of a user (the relay's user cache record). */
export interface UserBalance {
  readonly id: number;
  /** Its key in the spending guard (`u:<id>`), built once with the record rather than per request. */
  readonly balanceKey?: BalanceKey;
  quota: number;
  usedQuota: number;
  requestCount: number;
}

/** Quota held for one request, settled or refunded exactly once. */
export interface Reservation {
  readonly token: TokenBalance | undefined;
  readonly user: UserBalance;
  readonly amount: number;
  /** What it counts against each balance in the deployment's spending guard until it ends. */
  readonly claims: readonly BalanceClaim[];
  state: 'held' | 'settled' | 'refunded';
  /** A share of something else held with the quota (a spending budget), ended with it. */
  attachment?: ReservationAttachment;
}

/** Held beside a reservation; ended exactly once, with the final charge or (refund) undefined. */
export interface ReservationAttachment {
  end(finalQuota: number | undefined): void;
}

/** Told of every settled charge once the balances moved (low-balance and budget alerts). */
export interface SettleWatcher {
  settled(reservation: Reservation, finalQuota: number): void;
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; refusedBy: 'token' | 'user' };

/**
 * The quota ledger: memory and the spending guard decide admission, the database follows in batches.
 *
 * Every movement hits both ledgers (token remain/used and user quota/used) by the same
 * amounts. Holds stay in memory (HeldQuota); a settled charge is recorded in the journal first, then
 * queued as an aggregated delta with the consume log row that explains it; the flusher writes both.
 */
export class QuotaLedger {
  private readonly journal: ChargeRecorder | undefined;
  private readonly held = new HeldQuota();
  /** The deployment's spending guard, this process's side (read by tests and metrics). */
  readonly guard: SpendGuard;
  private pending = new PendingDeltas();
  private inFlight: PendingDeltas | undefined;
  /** Changes at the start and at the end of every batch write (see `readConsistently`). */
  private epoch = 0;
  private idleWaiters: Array<() => void> = [];
  /** Requests admitted and not yet settled or refunded, and who waits for there to be none. */
  private holding = 0;
  private nothingHeldWaiters: Array<() => void> = [];
  private watcher: SettleWatcher | undefined;
  /** Running totals since start, for /metrics (plain fields: nothing is computed per request). */
  readonly totals = { settled: 0, refunded: 0, chargedQuota: 0, heldQuota: 0 };

  /**
   * Without a journal (QUOTA_JOURNAL_DIR=off, unit tests), a crash loses the charges not yet flushed.
   * Without a guard the process guards its balances alone (one process, no Redis).
   */
  constructor(journal?: ChargeRecorder, guard: SpendGuard = new SpendGuard(new LocalSpendCoordinator())) {
    this.journal = journal;
    this.guard = guard;
  }

  watch(watcher: SettleWatcher): void {
    this.watcher = watcher;
  }

  /** Quota held on a user by its requests in flight (its balance without them is `quota + this`). */
  heldOnUser(id: number): number {
    return this.held.onUser(id);
  }

  /**
   * Holds quota on the token (unless unlimited) and on the user. A user with no balance is refused
   * even for a free request, as in new-api; a balance below new-api's hold (`amount`) is not when the
   * request's cost is known: near the edge the guard admits what the balance can pay for at the
   * request's expected cost.
   *
   * `amount` is new-api's cheap hold, taken off the balances in memory; `worstCase` what the request
   * can cost at most and `expected` what it is expected to cost (0: not known yet, when new-api's rule
   * stands: a balance below the hold is refused). Admission is the spending guard's
   * (spend-guard.ts): the request claims its worst case on both balances against the claims of every
   * process of the deployment, near the edge only its expected cost, so the deployment spends beyond
   * a balance only what answers cost above their expectation. Synchronous unless the guard has to ask
   * its coordinator (another process, Redis).
   */
  reserve(
    token: TokenBalance | undefined,
    user: UserBalance,
    amount: number,
    worstCase = amount,
    expected = worstCase,
  ): ReserveResult | Promise<ReserveResult> {
    // The balances without this process's holds: what the guard's account opens from.
    const userSeed = user.quota + this.held.onUser(user.id);
    if (userSeed <= 0) return { ok: false, refusedBy: 'user' };
    const limited = token !== undefined && !token.unlimited;
    const tokenSeed = limited ? token.remainQuota + this.held.onToken(token.id) : 0;
    if (limited && tokenSeed <= 0) return { ok: false, refusedBy: 'token' };
    // Nothing known of what this request costs: new-api's rule, a balance below its hold is refused.
    if (expected <= 0 && userSeed < amount) return { ok: false, refusedBy: 'user' };
    if (expected <= 0 && limited && tokenSeed < amount) return { ok: false, refusedBy: 'token' };
    const worst = worstCase > amount ? worstCase : amount;
    const balances: ClaimRequest[] = [];
    if (limited) balances.push({ key: token.balanceKey ?? tokenBalanceKey(token.id), seed: tokenSeed });
    balances.push({ key: user.balanceKey ?? userBalanceKey(user.id), seed: userSeed });
    const outcome = this.guard.claim(balances, worst, Math.max(0, Math.min(expected, worst)));
    if (outcome instanceof Promise) return outcome.then((decided) => this.admit(decided, token, user, amount, limited));
    return this.admit(outcome, token, user, amount, limited);
  }

  private admit(outcome: ClaimOutcome, token: TokenBalance | undefined, user: UserBalance, amount: number, limited: boolean): ReserveResult {
    if (!outcome.ok) return { ok: false, refusedBy: limited && outcome.refusedAt === 0 ? 'token' : 'user' };
    this.hold(token, user, amount);
    this.totals.heldQuota += amount;
    this.holding += 1;
    return { ok: true, reservation: { token, user, amount, claims: outcome.claims, state: 'held' } };
  }

  /** A balance was changed from outside by `delta` (told once, by the process that wrote it): the guard's account follows. */
  balanceAdjusted(owner: 'token' | 'user', id: number, delta: number): void {
    this.guard.adjust(owner === 'token' ? tokenBalanceKey(id) : userBalanceKey(id), delta);
  }

  /** A token or user was reloaded after a change from outside: this process gives back what it holds beyond its requests. */
  balanceReloaded(owner: 'token' | 'user', id: number): void {
    this.guard.giveBack(owner === 'token' ? tokenBalanceKey(id) : userBalanceKey(id));
  }

  /**
   * Replaces the hold with the final charge (which may exceed it: the balance may then go below
   * zero, as in new-api), records it in the journal and queues it with the consume log and the
   * channel's used quota. Called before the answer's last bytes go out (see relay-pipeline.ts), which
   * wait for the returned promise: it settles once the record is written to the journal (undefined
   * without a journal, or when there was nothing to settle).
   */
  settle(reservation: Reservation, finalQuota: number, channelId: number, log: LogEntry | undefined): Promise<void> | undefined {
    if (reservation.state !== 'held') return undefined;
    reservation.state = 'settled';
    this.totals.settled += 1;
    this.totals.chargedQuota += finalQuota;
    this.totals.heldQuota -= reservation.amount;
    const { token, user } = reservation;
    // The row becomes its text once: the journal line carries it, the queue keeps it until the flush.
    // Every caller dates its row; the clock's second stands in for one that does not.
    const row = log === undefined ? undefined : logRowText(log, Math.floor(Date.now() / 1000));
    const seq = this.journal?.record(token?.id ?? 0, user.id, channelId, finalQuota, row) ?? 0;
    const recorded = this.journal?.written();
    this.release(reservation);
    // Reported to the deployment's book once the record is written (see SpendGuard.settle).
    this.guard.settle(reservation.claims, finalQuota, seq, recorded);
    this.move(token, user, -finalQuota, finalQuota, 1);
    this.pending.addChannel(channelId, finalQuota);
    if (row !== undefined) this.pending.logs.push({ seq, row });
    if (seq > 0) this.pending.highSeq = seq;
    reservation.attachment?.end(finalQuota);
    this.watcher?.settled(reservation, finalQuota);
    this.holdEnded();
    return recorded;
  }

  /** Gives the hold back; a second call (or a call after settling) does nothing. */
  refund(reservation: Reservation): void {
    if (reservation.state !== 'held') return;
    reservation.state = 'refunded';
    this.totals.refunded += 1;
    this.totals.heldQuota -= reservation.amount;
    this.release(reservation);
    this.guard.release(reservation.claims);
    reservation.attachment?.end(undefined);
    this.holdEnded();
  }

  /**
   * Resolves true once no request holds quota (each one in flight settled or refunded), or false
   * after `withinMs`. A stop waits for it before its last write: requests cut at the end of its
   * grace settle a moment after their connection closed.
   */
  whenNothingHeld(withinMs: number): Promise<boolean> {
    if (this.holding === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.nothingHeldWaiters = this.nothingHeldWaiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, withinMs);
      this.nothingHeldWaiters.push(done);
    });
  }

  /** Requests holding quota now. */
  get requestsHolding(): number {
    return this.holding;
  }

  private holdEnded(): void {
    this.holding -= 1;
    if (this.holding > 0 || this.nothingHeldWaiters.length === 0) return;
    const waiters = this.nothingHeldWaiters;
    this.nothingHeldWaiters = [];
    for (const waiter of waiters) waiter();
  }

  /** Takes `amount` off the balances in memory; nothing is queued for the database. */
  private hold(token: TokenBalance | undefined, user: UserBalance, amount: number): void {
    if (token) token.remainQuota -= amount;
    user.quota -= amount;
    this.held.add(token?.id, user.id, amount);
  }

  private release(reservation: Reservation): void {
    const { token, user, amount } = reservation;
    if (token) token.remainQuota += amount;
    user.quota += amount;
    this.held.remove(token?.id, user.id, amount);
  }

  private move(token: TokenBalance | undefined, user: UserBalance, balanceDelta: number, used: number, requests: number): void {
    if (token) {
      token.remainQuota += balanceDelta;
      token.usedQuota += used;
      this.pending.addToken(token.id, balanceDelta, used);
    }
    user.quota += balanceDelta;
    user.usedQuota += used;
    user.requestCount += requests;
    this.pending.addUser(user.id, balanceDelta, used, requests);
  }

  /** Movements of a token not in the database: charges queued or being written, and holds in flight. */
  unwrittenToken(id: number): TokenDelta {
    const queued = this.pending.tokens.get(id);
    const writing = this.inFlight?.tokens.get(id);
    return { remain: (queued?.remain ?? 0) + (writing?.remain ?? 0) - this.held.onToken(id), used: (queued?.used ?? 0) + (writing?.used ?? 0) };
  }

  unwrittenUser(id: number): UserDelta {
    const queued = this.pending.users.get(id);
    const writing = this.inFlight?.users.get(id);
    return {
      quota: (queued?.quota ?? 0) + (writing?.quota ?? 0) - this.held.onUser(id),
      used: (queued?.used ?? 0) + (writing?.used ?? 0),
      requests: (queued?.requests ?? 0) + (writing?.requests ?? 0),
    };
  }

  /** Takes everything queued for writing; undefined when nothing is queued or a write is running. */
  takeBatch(): PendingDeltas | undefined {
    if (this.inFlight || this.pending.empty) return undefined;
    // The guard hears of a charge before the database has it: a process killed after the write has
    // nothing there its account of the balance does not know (SpendLeaseBook.settleDeparted).
    this.guard.reportSettled();
    this.inFlight = this.pending;
    this.pending = new PendingDeltas();
    this.epoch += 1;
    return this.inFlight;
  }

  /** Ends the running write; what was not written goes back to the queue. */
  finishBatch(unwritten: PendingDeltas | undefined): void {
    if (unwritten && !unwritten.empty) this.pending.absorb(unwritten);
    this.inFlight = undefined;
    this.epoch += 1;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  /** Log rows queued or being written. */
  get unwrittenLogs(): number {
    return this.pending.logs.length + (this.inFlight?.logs.length ?? 0);
  }

  get hasUnwritten(): boolean {
    return !this.pending.empty || this.inFlight !== undefined;
  }

  /**
   * Reads rows from the database so that `row + unwritten` is exact: the read must not overlap a
   * batch write (it could see the write or not, and the unwritten sums would then count it twice or
   * not at all), so it waits for a running write and repeats when one started meanwhile.
   */
  async readConsistently<T>(read: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      if (this.inFlight) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
      const before = this.epoch;
      const value = await read();
      if (before === this.epoch || attempt >= 5) return value;
    }
  }
}
