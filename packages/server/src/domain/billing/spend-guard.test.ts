import { describe, expect, it } from 'vitest';
import { LocalSpendCoordinator, type SpendCoordinator } from './spend-coordinator.ts';
import { SpendGuard, type BalanceClaim } from './spend-guard.ts';
import { SpendLeaseBook } from './spend-lease-book.ts';

/** One process's line to a book shared by several: synchronous, or a round trip away. */
function lineTo(book: SpendLeaseBook, holder: string, asynchronous = false): SpendCoordinator & { acquires: number } {
  const line = {
    outlivesProcess: true,
    acquires: 0,
    acquire: (key: string, request: Parameters<SpendLeaseBook['acquire']>[2]) => {
      line.acquires += 1;
      return asynchronous ? Promise.resolve().then(() => book.acquire(holder, key, request)) : book.acquire(holder, key, request);
    },
    report: (key: string, report: Parameters<SpendLeaseBook['report']>[2]) => book.report(holder, key, report),
    adjust: (key: string, delta: number) => book.adjust(key, delta),
  };
  return line;
}

const balance = (key: string, seed: number) => [{ key, seed }];

describe('the spending guard', () => {
  it('admits from its lease without asking while the lease covers the claim', () => {
    const line = lineTo(new SpendLeaseBook(), 'a');
    const guard = new SpendGuard(line);
    for (let request = 0; request < 20; request += 1) {
      const outcome = guard.claim(balance('t:1', 10_000_000), 1_000, 1_000);
      expect(outcome).toMatchObject({ ok: true });
    }
    expect(line.acquires).toBe(1);
    expect(guard.inFlight('t:1')).toBe(20_000);
  });

  it('keeps two processes sharing a balance within one request of it, settling and refunding as they go', async () => {
    const book = new SpendLeaseBook();
    const guards = [new SpendGuard(lineTo(book, 'a', true)), new SpendGuard(lineTo(book, 'b', true))];
    const cost = 2_010;
    const seed = 600_000;
    let charged = 0;
    let refused = 0;
    // 20 callers that keep asking until the balance refuses them; one answer in ten fails and is refunded.
    const caller = async (index: number) => {
      const guard = guards[index % 2]!;
      for (let call = 0; ; call += 1) {
        const outcome = await guard.claim(balance('t:1', seed), 16_386, cost);
        if (!outcome.ok) {
          refused += 1;
          return;
        }
        await new Promise((resolve) => setImmediate(resolve));
        if ((index + call) % 10 === 0) guard.release(outcome.claims);
        else {
          guard.settle(outcome.claims, cost);
          charged += cost;
        }
        if (call % 5 === 0) guard.flushReports();
      }
    };
    await Promise.all(Array.from({ length: 20 }, (_unused, index) => caller(index)));
    expect(refused).toBe(20);
    expect(charged).toBeLessThanOrEqual(seed + cost);
    // And no more than one request's cost is left unspent.
    expect(charged).toBeGreaterThan(seed - cost);
  });

  it('claims on the token and the user together, or on neither', () => {
    const book = new SpendLeaseBook();
    const guard = new SpendGuard(lineTo(book, 'a'));
    const outcome = guard.claim(
      [
        { key: 't:1', seed: 100_000 },
        { key: 'u:7', seed: 500 },
      ],
      1_000,
      500,
    );
    // The user's 500 pays for this last request at its expected cost: admitted, then nothing more.
    expect(outcome).toMatchObject({ ok: true });
    const claims = (outcome as { claims: BalanceClaim[] }).claims;
    expect(claims.map((claim) => claim.amount)).toEqual([1_000, 500]);
    guard.settle(claims, 1_000);
    const refused = guard.claim(
      [
        { key: 't:1', seed: 100_000 },
        { key: 'u:7', seed: 500 },
      ],
      1_000,
      1_000,
    );
    expect(refused).toEqual({ ok: false, refusedAt: 1 });
    // The token's claim was given back with the refusal.
    expect(guard.inFlight('t:1')).toBe(0);
  });

  it('reports a charge only once its journal record is written: a process killed before leaves nothing counted that its journal lacks', async () => {
    const book = new SpendLeaseBook();
    const guard = new SpendGuard(lineTo(book, 'a'));
    const claimed = guard.claim(balance('t:1', 10_000), 4_000, 2_000);
    if (claimed instanceof Promise || !claimed.ok) throw new Error('refused');
    // Near the edge (an exact claim): a charge would be reported at once, before its record is written.
    const record = Promise.withResolvers<void>();
    guard.settle(claimed.claims, 2_000, 1, record.promise);
    expect(book.room('t:1')).toBe(6_000);

    // Killed now: the record never reached the journal, so the replay finds no charge and the claim comes back whole.
    const killed = new SpendLeaseBook();
    const dying = new SpendGuard(lineTo(killed, 'dead'));
    const dyingClaim = dying.claim(balance('t:1', 10_000), 4_000, 2_000);
    if (dyingClaim instanceof Promise || !dyingClaim.ok) throw new Error('refused');
    dying.settle(dyingClaim.claims, 2_000, 1, new Promise<void>(() => undefined));
    killed.holderGone('dead');
    killed.settleDeparted('dead', []);
    expect(killed.room('t:1')).toBe(10_000);

    // Written: the charge is reported, and what the claim held beyond it goes back.
    record.resolve();
    await record.promise;
    expect(book.room('t:1')).toBe(8_000);
    expect(guard.inFlight('t:1')).toBe(0);
  });

  it('tells a book in this process of a charge at once: it dies with the process, so it never outlives an unwritten record', () => {
    const local = new LocalSpendCoordinator();
    const guard = new SpendGuard(local);
    const claimed = guard.claim(balance('t:1', 10_000), 4_000, 2_000);
    if (claimed instanceof Promise || !claimed.ok) throw new Error('refused');
    guard.settle(claimed.claims, 2_000, 1, new Promise<void>(() => undefined));
    expect(local.book.room('t:1')).toBe(8_000);
  });

  it('reports charges whose record is not written yet before a batch takes them to the database', () => {
    const book = new SpendLeaseBook();
    const guard = new SpendGuard(lineTo(book, 'a'));
    const claimed = guard.claim(balance('t:1', 10_000), 4_000, 2_000);
    if (claimed instanceof Promise || !claimed.ok) throw new Error('refused');
    guard.settle(claimed.claims, 2_000, 1, new Promise<void>(() => undefined));
    guard.reportSettled();
    guard.flushReports();
    expect(book.room('t:1')).toBe(8_000);
  });

  it('gives an idle lease back so the other process can use its room', async () => {
    const book = new SpendLeaseBook();
    const a = new SpendGuard(lineTo(book, 'a'));
    const b = new SpendGuard(lineTo(book, 'b'));
    const first = a.claim(balance('t:1', 4_000), 1_000, 1_000);
    if (first instanceof Promise || !first.ok) throw new Error('refused');
    a.settle(first.claims, 1_000);
    for (let request = 0; request < 3; request += 1) expect(b.claim(balance('t:1', 4_000), 1_000, 1_000)).toMatchObject({ ok: true });
    expect(b.claim(balance('t:1', 4_000), 1_000, 1_000)).toEqual({ ok: false, refusedAt: 0 });
    a.flushReports();
    expect(book.room('t:1')).toBe(0);
  });
});
