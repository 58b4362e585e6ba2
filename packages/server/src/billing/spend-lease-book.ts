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
  /** What the request is expected to cost (its claim near the edge). */
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
  touchedAt: number;
}

/**
 * The near-edge rule, shared with the Redis script: a slice far from the edge, the worst case while it
 * fits, the expected cost while that fits, then the rest of the room for one last request, taken only
 * when nothing else is leased (so no two requests can each run past the edge), then nothing.
 */
export function grantFor(room: number, worst: number, expected: number, holders: number, leased: number): number {
  if (worst <= 0) return room >= 0 ? 0 : -1;
  if (room >= worst * sliceThreshold * holders) return Math.max(worst, Math.floor(room / (sliceDivisor * holders)));
  if (room >= worst) return worst;
  if (room >= expected && expected > 0) return expected;
  if (room > 0 && leased <= 0) return room;
  return -1;
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
      account = { generation: this.nextGeneration++, base: request.seed, spent: 0, leases: new Map(), touchedAt: 0 };
      this.accounts.set(key, account);
    }
    account.touchedAt = this.now();
    // A holder new to this account brings its requests in flight: they count before anything is granted.
    if (request.generation !== account.generation && request.carried > 0) add(account.leases, holder, request.carried);
    let leased = 0;
    for (const amount of account.leases.values()) leased += amount;
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

  /** A holder that died: what it held counts as spent (its journal replays the real charges into the database). */
  holderGone(holder: string): void {
    for (const account of this.accounts.values()) {
      const lease = account.leases.get(holder);
      if (lease === undefined) continue;
      account.spent += Math.max(0, lease);
      account.leases.delete(holder);
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
    let leased = 0;
    for (const amount of account.leases.values()) leased += amount;
    return account.base - account.spent - leased;
  }
}

function add(leases: Map<string, number>, holder: string, amount: number): void {
  const total = (leases.get(holder) ?? 0) + amount;
  if (total <= 0) leases.delete(holder);
  else leases.set(holder, total);
}
