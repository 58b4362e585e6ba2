import type { SpendCoordinator } from './spend-coordinator.ts';
import type { LeaseGrant } from './spend-lease-book.ts';

/** A balance the guard watches: a token's remaining quota (`t:<id>`) or a user's quota (`u:<id>`). */
export type BalanceKey = string;
export const tokenBalanceKey = (id: number): BalanceKey => `t:${id}`;
export const userBalanceKey = (id: number): BalanceKey => `u:${id}`;

/** One balance's claim for one request: what it counts against that balance until it ends. */
export interface BalanceClaim {
  readonly key: BalanceKey;
  readonly amount: number;
}

/** What one request asks of one balance. */
export interface ClaimRequest {
  readonly key: BalanceKey;
  /** The balance as this process sees it without its own holds (opens the account). */
  readonly seed: number;
}

/** This process's share of one balance: the lease it holds and what it has committed from it. */
interface HeldLease {
  generation: number;
  lease: number;
  /** Claims of requests in flight. */
  inFlight: number;
  /** Charges settled and not yet reported. */
  unreported: number;
  /** Charges settled whose journal record is not written yet: reported once it is (see SpendGuard.settle). */
  unrecorded: number;
  lastUsedAt: number;
  /**
   * The last grant was a slice (far from the edge): the lease is kept for the next requests and its
   * charges reported in the background. Otherwise grants are exact claims, and what a request leaves
   * goes back at once, so that near the edge no room waits idle in one process while another refuses.
   */
  sliced: boolean;
  /** The coordinator's answer this process waits for: other requests wait for it too rather than ask again. */
  asking: Promise<unknown> | undefined;
}

/** A charge settled before its journal record was written, on the balances of its claims. */
interface UnrecordedCharge {
  readonly seq: number;
  readonly charge: number;
  /** Each claimed balance's lease and its generation then: a reset account already counts the charge (in its seed). */
  readonly leases: ReadonlyArray<{ readonly key: BalanceKey; readonly held: HeldLease; readonly generation: number }>;
}

/** Reports go out this often while something is to report, so other processes see the room a moment later. */
const reportIntervalMs = 200;
/** A lease nobody here used for this long goes back, so another process can use its room. */
const idleLeaseMs = 1_000;

/**
 * This process's side of the deployment's spending guard. A request claims its worst case on its
 * token's and its user's balances; while the process's lease covers the claim it is admitted at once
 * (no round trip, no promise); otherwise the coordinator decides, against every process's leases.
 * Near the edge a claim shrinks to the request's expected cost, so the balance pays for as many
 * requests as it can and none it cannot pay for. Settled charges and unused leases are reported in
 * the background.
 */
export class SpendGuard {
  private readonly coordinator: SpendCoordinator;
  private readonly now: () => number;
  private readonly leases = new Map<BalanceKey, HeldLease>();
  /** The journal sequence number of the last settled charge reported or to be: every report covers the charges up to it. */
  private settledThroughSeq = 0;
  /** Charges settled whose journal record is not written yet, oldest first (records are written in order). */
  private unrecorded: UnrecordedCharge[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(coordinator: SpendCoordinator, now: () => number = Date.now) {
    this.coordinator = coordinator;
    this.now = now;
  }

  /**
   * Claims `worst` (near the edge: `expected`; 0 when not known yet) on each balance, or on none.
   * Synchronous while the leases cover it (and whenever the coordinator is in this process); a refusal
   * names the index of the refusing balance.
   */
  claim(requests: readonly ClaimRequest[], worst: number, expected: number): ClaimOutcome | Promise<ClaimOutcome> {
    return this.claimFrom(requests, 0, [], worst, Math.min(worst, Math.ceil(expected)));
  }

  /**
   * Ends claims with a charge: the charge counts as spent from the lease, reported shortly. `seq` is the
   * charge's journal record, made just before in the same turn (0: no journal), and `recorded` settles
   * once that record is written.
   *
   * With a journal and a book that outlives this process, the charge is reported only once its record
   * is written. Reported before, a process
   * killed in between would leave the book counting a charge that is nowhere (not in its journal, so
   * never replayed nor written, and its answer never went out): the balance would end that much short
   * of spent. Unreported, the claim stays in the dead process's lease until the replay gives it back.
   */
  settle(claims: readonly BalanceClaim[], charge: number, seq = 0, recorded?: Promise<void>): void {
    if (seq <= 0 || recorded === undefined || !this.coordinator.outlivesProcess) {
      if (seq > this.settledThroughSeq) this.settledThroughSeq = seq;
      this.spend(claims, charge);
      return;
    }
    const leases: Array<UnrecordedCharge['leases'][number]> = [];
    for (const claim of claims) {
      const held = this.leases.get(claim.key);
      if (!held) continue;
      held.inFlight -= claim.amount;
      held.unrecorded += charge;
      leases.push({ key: claim.key, held, generation: held.generation });
    }
    this.unrecorded.push({ seq, charge, leases });
    void recorded.then(() => this.recordedThrough(seq));
  }

  /** Counts a charge whose claims already ended as spent from their leases (reported now near the edge, shortly far from it). */
  private spend(claims: readonly BalanceClaim[], charge: number): void {
    for (const claim of claims) {
      const held = this.leases.get(claim.key);
      if (!held) continue;
      held.inFlight -= claim.amount;
      held.unreported += charge;
      if (!held.sliced) this.reportNow(claim.key, held, true);
    }
    this.scheduleReport();
  }

  /** The journal records up to `seq` are written: their charges may be reported. */
  private recordedThrough(seq: number): void {
    let count = 0;
    while (count < this.unrecorded.length && this.unrecorded[count]!.seq <= seq) count += 1;
    if (count === 0) return;
    for (const entry of this.unrecorded.splice(0, count)) this.recorded(entry);
    this.scheduleReport();
  }

  private recorded(entry: UnrecordedCharge): void {
    if (entry.seq > this.settledThroughSeq) this.settledThroughSeq = entry.seq;
    for (const { key, held, generation } of entry.leases) {
      // A new account (after a reset) opened from a seed that counts this charge already.
      if (held.generation !== generation) continue;
      held.unrecorded -= entry.charge;
      held.unreported += entry.charge;
      if (!held.sliced) this.reportNow(key, held, true);
    }
  }

  /** Ends claims without a charge: their room is free again in the lease. */
  release(claims: readonly BalanceClaim[]): void {
    for (const claim of claims) {
      const held = this.leases.get(claim.key);
      if (!held) continue;
      held.inFlight -= claim.amount;
      if (!held.sliced) this.reportNow(claim.key, held, true);
    }
    this.scheduleReport();
  }

  /** The balance was changed from outside by `delta`: told once, by the process that wrote the change. */
  adjust(key: BalanceKey, delta: number): void {
    if (delta !== 0) this.coordinator.adjust(key, delta);
  }

  /**
   * The balance was changed from outside: what this process holds beyond its requests in flight goes
   * back (a slice of the old balance may be far more than the new one). Every process hears the
   * change and does the same.
   */
  giveBack(key: BalanceKey): void {
    const held = this.leases.get(key);
    if (held) this.reportNow(key, held, true);
  }

  /** Claims of this process's requests in flight on a balance. */
  inFlight(key: BalanceKey): number {
    return this.leases.get(key)?.inFlight ?? 0;
  }

  /**
   * Reports every settled charge now, keeping the leases: called before a batch of charges goes to the
   * database, so that a charge written there was always reported first (see SpendLeaseBook.settleDeparted).
   * Charges whose journal record is still unwritten go too: the batch holds them. (A process killed
   * before both writes then leaves them counted in the book though nowhere else; the window is the
   * rest of the turn they were settled in.)
   */
  reportSettled(): void {
    for (const entry of this.unrecorded.splice(0)) this.recorded(entry);
    for (const [key, held] of this.leases) if (held.unreported !== 0) this.reportNow(key, held, false);
  }

  /** Sends every report now (tests, shutdown). */
  flushReports(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.report(true);
  }

  private fromLease(key: BalanceKey, worst: number): BalanceClaim | undefined {
    const held = this.leases.get(key);
    if (worst <= 0) return { key, amount: 0 };
    if (!held || held.lease - held.inFlight - held.unreported - held.unrecorded < worst) return undefined;
    held.inFlight += worst;
    held.lastUsedAt = this.now();
    return { key, amount: worst };
  }

  /** Claims on `requests` from `from` on; asks the coordinator where the lease falls short (a promise only if it answers with one). */
  private claimFrom(
    requests: readonly ClaimRequest[],
    from: number,
    claims: BalanceClaim[],
    worst: number,
    expected: number,
  ): ClaimOutcome | Promise<ClaimOutcome> {
    for (let index = from; index < requests.length; index += 1) {
      const { key, seed } = requests[index]!;
      const local = this.fromLease(key, worst);
      if (local) {
        claims.push(local);
        continue;
      }
      const held = this.held(key);
      // One question at a time per balance: a burst waits for the first answer (usually a slice that
      // covers it) instead of asking once per request.
      if (held.asking) return held.asking.then(() => this.claimFrom(requests, index, claims, worst, expected));
      // Marked as used before the answer comes, so a report sent meanwhile does not give the lease away.
      held.lastUsedAt = this.now();
      const grant = this.coordinator.acquire(key, { seed, worst, expected, carried: held.inFlight, generation: held.generation });
      if (grant instanceof Promise) {
        const answered = grant.then(
          (answer) => {
            held.asking = undefined;
            return this.take(held, key, answer, worst, claims) ? this.claimFrom(requests, index + 1, claims, worst, expected) : this.refuse(claims, index);
          },
          (error: unknown) => {
            held.asking = undefined;
            this.release(claims);
            throw error;
          },
        );
        held.asking = answered.catch(() => undefined);
        return answered;
      }
      if (!this.take(held, key, grant, worst, claims)) return this.refuse(claims, index);
    }
    return { ok: true, claims };
  }

  /** Takes a grant into the lease and claims from it; false when it is a refusal. */
  private take(held: HeldLease, key: BalanceKey, grant: LeaseGrant, worst: number, claims: BalanceClaim[]): boolean {
    if (grant.generation !== held.generation) {
      // A new account: it counted our requests in flight (carried) as our lease.
      held.generation = grant.generation;
      held.lease = held.inFlight;
      held.unreported = 0;
      held.unrecorded = 0;
    }
    if (grant.granted < 0) return false;
    held.lease += grant.granted;
    held.sliced = grant.granted > worst;
    const amount = Math.min(grant.granted, worst);
    held.inFlight += amount;
    claims.push({ key, amount });
    return true;
  }

  private refuse(claims: readonly BalanceClaim[], refusedAt: number): ClaimOutcome {
    this.release(claims);
    return { ok: false, refusedAt };
  }

  private held(key: BalanceKey): HeldLease {
    let held = this.leases.get(key);
    if (!held) {
      held = { generation: 0, lease: 0, inFlight: 0, unreported: 0, unrecorded: 0, lastUsedAt: this.now(), sliced: false, asking: undefined };
      this.leases.set(key, held);
    }
    return held;
  }

  private scheduleReport(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.report(false);
    }, reportIntervalMs);
    this.timer.unref();
  }

  private report(everything: boolean): void {
    const idleBefore = this.now() - idleLeaseMs;
    let pending = false;
    for (const [key, held] of this.leases) {
      const idle = everything || held.lastUsedAt <= idleBefore;
      this.reportNow(key, held, idle);
      if (held.inFlight <= 0 && held.lease <= 0 && held.unrecorded <= 0 && idle) this.leases.delete(key);
      else if (!idle || held.lease > held.inFlight) pending = true;
    }
    if (pending) this.scheduleReport();
  }

  /** Reports the charges settled from a lease, and with `releasing` gives back what no request in flight holds. */
  private reportNow(key: BalanceKey, held: HeldLease, releasing: boolean): void {
    const spent = held.unreported;
    const released = releasing ? Math.max(0, held.lease - held.inFlight - held.unrecorded - spent) : 0;
    if (held.generation !== 0 && (spent !== 0 || released !== 0)) {
      this.coordinator.report(key, { generation: held.generation, spent, released, throughSeq: this.settledThroughSeq });
    }
    held.lease -= spent + released;
    held.unreported = 0;
  }
}

export type ClaimOutcome = { ok: true; claims: BalanceClaim[] } | { ok: false; refusedAt: number };
