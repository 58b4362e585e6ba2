import type { LogEntry } from '../logs/log-writer.ts';
import { PendingDeltas, type TokenDelta, type UserDelta } from './pending-deltas.ts';

/** The in-memory balance of a token (the relay's token cache record). */
export interface TokenBalance {
  readonly id: number;
  remainQuota: number;
  usedQuota: number;
  readonly unlimited: boolean;
}

/** The in-memory balance of a user (the relay's user cache record). */
export interface UserBalance {
  readonly id: number;
  quota: number;
  usedQuota: number;
  requestCount: number;
}

/** Quota held for one request, settled or refunded exactly once. */
export interface Reservation {
  readonly token: TokenBalance | undefined;
  readonly user: UserBalance;
  readonly amount: number;
  state: 'held' | 'settled' | 'refunded';
}

export type ReserveResult = { ok: true; reservation: Reservation } | { ok: false; refusedBy: 'token' | 'user' };

/**
 * The quota ledger: memory is the authority for admission, the database follows in batches.
 *
 * Node runs this on one thread, so a check and its debit cannot interleave with another request:
 * 500 simultaneous requests see the balance one after another and none can spend what another
 * holds. Every movement hits both ledgers (token remain/used and user quota/used) by the same
 * amounts, and is queued as an aggregated delta with the consume log row that explains it; the
 * flusher writes both together.
 */
export class QuotaLedger {
  private pending = new PendingDeltas();
  private inFlight: PendingDeltas | undefined;
  /** Changes at the start and at the end of every batch write (see `readConsistently`). */
  private epoch = 0;
  private idleWaiters: Array<() => void> = [];
  /** Running totals since start, for /metrics (plain fields: nothing is computed per request). */
  readonly totals = { settled: 0, refunded: 0, chargedQuota: 0, heldQuota: 0 };

  /**
   * Holds `amount` on the token (unless unlimited) and on the user. A user with no balance is refused
   * even for a free request, as in new-api.
   */
  reserve(token: TokenBalance | undefined, user: UserBalance, amount: number): ReserveResult {
    if (user.quota <= 0 || user.quota < amount) return { ok: false, refusedBy: 'user' };
    if (token && !token.unlimited && token.remainQuota < amount) return { ok: false, refusedBy: 'token' };
    this.move(token, user, -amount, 0, 0);
    this.totals.heldQuota += amount;
    return { ok: true, reservation: { token, user, amount, state: 'held' } };
  }

  /**
   * Replaces the hold with the final charge (which may exceed it: the balance may then go below
   * zero, as in new-api) and queues the consume log and the channel's used quota.
   */
  settle(reservation: Reservation, finalQuota: number, channelId: number, log: LogEntry | undefined): void {
    if (reservation.state !== 'held') return;
    reservation.state = 'settled';
    this.totals.settled += 1;
    this.totals.chargedQuota += finalQuota;
    this.totals.heldQuota -= reservation.amount;
    this.move(reservation.token, reservation.user, reservation.amount - finalQuota, finalQuota, 1);
    this.pending.addChannel(channelId, finalQuota);
    if (log) this.pending.logs.push(log);
  }

  /** Gives the hold back; a second call (or a call after settling) does nothing. */
  refund(reservation: Reservation): void {
    if (reservation.state !== 'held') return;
    reservation.state = 'refunded';
    this.totals.refunded += 1;
    this.totals.heldQuota -= reservation.amount;
    this.move(reservation.token, reservation.user, reservation.amount, 0, 0);
  }

  /** Queues a log row that moves no quota (channel test results, system notes). */
  queueLog(log: LogEntry): void {
    this.pending.logs.push(log);
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

  /** Movements of a token not yet in the database (queued or being written). */
  unwrittenToken(id: number): TokenDelta {
    const queued = this.pending.tokens.get(id);
    const writing = this.inFlight?.tokens.get(id);
    return { remain: (queued?.remain ?? 0) + (writing?.remain ?? 0), used: (queued?.used ?? 0) + (writing?.used ?? 0) };
  }

  unwrittenUser(id: number): UserDelta {
    const queued = this.pending.users.get(id);
    const writing = this.inFlight?.users.get(id);
    return {
      quota: (queued?.quota ?? 0) + (writing?.quota ?? 0),
      used: (queued?.used ?? 0) + (writing?.used ?? 0),
      requests: (queued?.requests ?? 0) + (writing?.requests ?? 0),
    };
  }

  /** Takes everything queued for writing; undefined when nothing is queued or a write is running. */
  takeBatch(): PendingDeltas | undefined {
    if (this.inFlight || this.pending.empty) return undefined;
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
