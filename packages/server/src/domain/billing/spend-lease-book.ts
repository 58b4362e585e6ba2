/**
 * The deployment's one account of what may still be spent from each balance (a token's remaining
 * quota, a user's quota), shared by every process that admits requests against it.
 *
 * A process does not ask here for every request: it takes a lease, a slice of the balance's room it
 * may commit on its own, and reports what it spent from it a moment later. Far from the edge a lease
 * is a fraction of the room, so a process asks rarely; near the edge a lease is exactly one request's
 * claim, so every request is decided here, against the claims of every process. Leases never add up to
 * more than the balance, so the whole deployment spends at most what the balance holds plus what one
 * request costs beyond its claim.
 *
 * Kept by the primary for its workers (cluster/primary-spend.ts), by each process alone when it is the
 * only one (LocalSpendCoordinator), and mirrored by a Redis script between instances
 * (redis-spend-coordinator.ts), which follows the same rules.
 */

/** What a process asks for one request. */
export interface LeaseRequest {
  /** The balance as this process sees it, used only to open the account: the row plus its own unwritten charges. */
  readonly seed: number;
  /** The request's worst case (its claim while the room allows). */
  readonly worst: number;
  /** What the request is expected to cost (its claim near the edge); 0 when nobody knows yet. */
  readonly expected: number;
  /** Claims of this process's requests in flight that no lease of the current account covers (after a reset). */
  readonly carried: number;
  /** The account generation this process last held a lease of (0: none). */
  readonly generation: number;
}

export interface LeaseGrant {
  /** Quota granted (0: refused). At least the claim it was asked for when not refused, unless the room was smaller. */
  readonly granted: number;
  readonly generation: number;
}

/** What a process gives back: charges settled from its lease, and lease it no longer needs. */
export interface LeaseReport {
  readonly generation: number;
  readonly spent: number;
  readonly released: number;
  /**
   * The journal sequence number of the holder's last settled charge when it reported: each of its
   * charges on this balance up to it is in this report or an earlier one (0: no journal). Tells, when
   * the holder dies, which of its journaled charges the account has not heard of (settleDeparted).
   */
  readonly throughSeq?: number;
}

/** A charge of a dead holder found in its journal and not in the database: replayed, and perhaps never reported. */
export interface DepartedCharge {
  readonly seq: number;
  /** The balances it moved (a token's and its user's). */
  readonly keys: readonly string[];
  readonly quota: number;
}

/** Room that covers this many worst cases per holder is far from the edge: leases are slices, not claims. */
export const sliceThreshold = 32;
/** A slice is this share of the room divided among the holders. */
export const sliceDivisor = 4;
/** An account nobody holds a lease of is forgotten after this long (the next one opens from a fresh view). */
export const idleAccountMs = 60_000;

interface Account {
  readonly generation: number;
  base: number;
  spent: number;
  readonly leases: Map<string, number>;
  /** Leases of holders that died, held until their journals say what they really spent (settleDeparted). */
  readonly departed: Map<string, number>;
  /** Each holder's last `throughSeq`. */
  readonly reportedThrough: Map<string, number>;
  touchedAt: number;
}

/**
 * The near-edge rule, shared with the Redis script: a slice far from the edge, the worst case while it
 * fits, then the expected cost while that fits (a request the rest cannot pay for at its expected
 * cost is refused). A request whose cost nobody knows yet (`expected` 0: a model's first answers)
 * gets the rest of the room when nothing else is leased: it runs alone and teaches what such answers
 * cost, and no two requests can each run past the edge.
 */
export function grantFor(room: number, worst: number, expected: number, holders: number, leased: number): number {
  if (worst <= 0) return room >= 0 ? 0 : -1;
  if (room >= worst * sliceThreshold * holders) return Math.max(worst, Math.floor(room / (sliceDivisor * holders)));
  if (room >= worst) return worst;
  if (expected > 0) return room >= expected ? expected : -1;
  return room > 0 && leased <= 0 ? room : -1;
}

export class SpendLeaseBook {
  private readonly accounts = new Map<string, Account>();
  private nextGeneration = 1;
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  /**
   * Grants quota on `key` to `holder`. A request that costs nothing (worst 0) is granted 0 and
   * admitted while the room is not below zero; `granted: -1` is a refusal.
   */
  acquire(holder: string, key: string, request: LeaseRequest): LeaseGrant {
    let account = this.accounts.get(key);
    if (!account) {
      account = {
        generation: this.nextGeneration++,
        base: request.seed,
        spent: 0,
        leases: new Map(),
        departed: new Map(),
        reportedThrough: new Map(),
        touchedAt: 0,
      };
      this.accounts.set(key, account);
    }
    account.touchedAt = this.now();
    // A holder new to this account brings its requests in flight: they count before anything is granted.
    if (request.generation !== account.generation && request.carried > 0) add(account.leases, holder, request.carried);
    const leased = leasedOn(account);
    const room = account.base - account.spent - leased;
    const holders = Math.max(2, account.leases.size + (account.leases.has(holder) ? 0 : 1));
    const granted = grantFor(room, request.worst, request.expected, holders, leased);
    if (granted > 0) add(account.leases, holder, granted);
    return { granted, generation: account.generation };
  }

  /** Counts a holder's settled charges as spent and takes them, with what it releases, off its lease. */
  report(holder: string, key: string, report: LeaseReport): void {
    const account = this.accounts.get(key);
    if (!account || account.generation !== report.generation) return;
    account.spent += report.spent;
    add(account.leases, holder, -(report.spent + report.released));
    if (report.throughSeq) account.reportedThrough.set(holder, Math.max(report.throughSeq, account.reportedThrough.get(holder) ?? 0));
    account.touchedAt = this.now();
  }

  /**
   * The balance was changed from outside by `delta` (a top-up, a redemption, an administrator's edit, a
   * refund), told once by the process that wrote it. Leases stay: the requests they cover are still in
   * flight; on a decrease every holder gives back what it holds beyond them (SpendGuard.giveBack).
   */
  adjust(key: string, delta: number): void {
    const account = this.accounts.get(key);
    if (account) account.base += delta;
  }

  /**
   * A holder that died: what it held stays out of the room, since some of it may have been spent in
   * answers it never reported, until its journal is replayed and settleDeparted says how much. (Counted
   * as spent for good, the unused rest of a slice would be lost to the balance while it is in use.)
   */
  holderGone(holder: string): void {
    for (const account of this.accounts.values()) {
      const lease = account.leases.get(holder);
      if (lease === undefined) continue;
      account.leases.delete(holder);
      add(account.departed, holder, lease);
    }
  }

  /** Whether a dead holder's lease on this balance still waits for its journal to be replayed (settleDeparted). */
  awaitsDeparted(key: string): boolean {
    return (this.accounts.get(key)?.departed.size ?? 0) > 0;
  }

  /**
   * A dead holder's journal was replayed: `charges` are those it held that were not in the database yet.
   * Those it had not reported (after its last `throughSeq` on the balance) are spent; the rest of its
   * lease goes back to the room. Every charge in the database was reported before it was written
   * (QuotaLedger.takeBatch), so the replayed ones are all that can be missing.
   */
  settleDeparted(holder: string, charges: readonly DepartedCharge[]): void {
    for (const [key, account] of this.accounts) {
      if (!account.departed.has(holder)) continue;
      const through = account.reportedThrough.get(holder) ?? 0;
      let unreported = 0;
      for (const charge of charges) if (charge.seq > through && charge.keys.includes(key)) unreported += charge.quota;
      account.spent += unreported;
      account.departed.delete(holder);
      account.reportedThrough.delete(holder);
      account.touchedAt = this.now();
    }
  }

  /** Forgets accounts nobody holds a lease of and nobody touched for a while. */
  sweep(): void {
    const before = this.now() - idleAccountMs;
    for (const [key, account] of this.accounts) {
      if (account.touchedAt < before && [...account.leases.values()].every((amount) => amount <= 0)) this.accounts.delete(key);
    }
  }

  /** The room left on an account, for tests and metrics (undefined when it is not open). */
  room(key: string): number | undefined {
    const account = this.accounts.get(key);
    if (!account) return undefined;
    return account.base - account.spent - leasedOn(account);
  }
}

/** What the account's holders, live and departed, hold. */
function leasedOn(account: Account): number {
  let leased = 0;
  for (const amount of account.leases.values()) leased += amount;
  for (const amount of account.departed.values()) leased += amount;
  return leased;
}

function add(leases: Map<string, number>, holder: string, amount: number): void {
  const total = (leases.get(holder) ?? 0) + amount;
  if (total <= 0) leases.delete(holder);
  else leases.set(holder, total);
}
