import { describe, expect, it } from 'vitest';
import { SpendLeaseBook, grantFor, type LeaseRequest } from './spend-lease-book.ts';

const ask = (seed: number, worst: number, expected = worst, generation = 0, carried = 0): LeaseRequest => ({ seed, worst, expected, carried, generation });

describe('the spending lease book', () => {
  it('grants slices far from the edge, then the worst case, the expected cost, the last of the room, then nothing', () => {
    // Two holders at least: a slice is a quarter of the room divided among them.
    expect(grantFor(1_000_000, 1_000, 500, 2, 0)).toBe(125_000);
    expect(grantFor(60_000, 1_000, 500, 2, 0)).toBe(1_000);
    expect(grantFor(999, 1_000, 500, 2, 3_000)).toBe(500);
    // A request the rest cannot pay for at its expected cost is refused.
    expect(grantFor(499, 1_000, 500, 2, 0)).toBe(-1);
    // One whose cost is not known yet gets the rest of the room, only when no other is in flight.
    expect(grantFor(499, 1_000, 0, 2, 0)).toBe(499);
    expect(grantFor(499, 1_000, 0, 2, 500)).toBe(-1);
    expect(grantFor(0, 1_000, 500, 2, 0)).toBe(-1);
    expect(grantFor(-10, 1_000, 500, 2, 0)).toBe(-1);
    // A free request is admitted while the balance is not below zero.
    expect(grantFor(0, 0, 0, 2, 0)).toBe(0);
    expect(grantFor(-1, 0, 0, 2, 0)).toBe(-1);
  });

  it('opens an account from the first seed and never leases more than the balance to all holders together', () => {
    const book = new SpendLeaseBook(() => 0);
    const grants: number[] = [];
    for (let call = 0; call < 200; call += 1) {
      const holder = call % 2 === 0 ? 'a' : 'b';
      // Later seeds are ignored: the account is open.
      const { granted } = book.acquire(holder, 't:1', ask(call === 0 ? 100_000 : 9_999_999, 1_000));
      if (granted > 0) grants.push(granted);
    }
    const total = grants.reduce((sum, amount) => sum + amount, 0);
    expect(total).toBeLessThanOrEqual(100_000);
    // Less than one claim is left unleased.
    expect(total).toBeGreaterThan(99_000);
    expect(book.room('t:1')).toBe(100_000 - total);
    expect(book.acquire('a', 't:1', ask(0, 1_000)).granted).toBe(-1);
  });

  it('counts reported charges as spent, releases the rest of a lease, and ignores reports of another account', () => {
    const book = new SpendLeaseBook(() => 0);
    const { granted, generation } = book.acquire('a', 'u:7', ask(10_000, 1_000));
    expect(granted).toBe(1_000);
    book.report('a', 'u:7', { generation, spent: 600, released: 400 });
    expect(book.room('u:7')).toBe(9_400);
    book.report('a', 'u:7', { generation: generation + 1, spent: 5_000, released: 0 });
    expect(book.room('u:7')).toBe(9_400);
  });

  it("keeps a dead holder's lease out of the room until its journal says what it spent unreported", () => {
    const book = new SpendLeaseBook(() => 0);
    // Far from the edge: a holds a slice of 100,000 - 1,000 worst cases per holder.
    const slice = book.acquire('a', 't:1', ask(100_000, 100)).granted;
    expect(slice).toBeGreaterThan(100);
    book.report('a', 't:1', { generation: 1, spent: 300, released: 0, throughSeq: 7 });
    book.holderGone('a');
    expect(book.room('t:1')).toBe(100_000 - 300 - (slice - 300));
    // Replayed from a's journal: seq 6 and 7 were in its report, 8 and 9 were not; 10 moved another token.
    book.settleDeparted('a', [
      { seq: 6, keys: ['t:1', 'u:1'], quota: 100 },
      { seq: 7, keys: ['t:1', 'u:1'], quota: 200 },
      { seq: 8, keys: ['t:1', 'u:1'], quota: 150 },
      { seq: 9, keys: ['t:1', 'u:1'], quota: 50 },
      { seq: 10, keys: ['t:2', 'u:1'], quota: 999 },
    ]);
    expect(book.room('t:1')).toBe(100_000 - 300 - 200);
  });

  it('keeps the lease of a holder that died until its journal is replayed, and moves the balance by a change from outside keeping the leases', () => {
    const book = new SpendLeaseBook(() => 0);
    book.acquire('a', 't:1', ask(5_000, 1_000));
    book.acquire('b', 't:1', ask(5_000, 1_000));
    book.holderGone('a');
    expect(book.room('t:1')).toBe(3_000);
    book.settleDeparted('a', []);
    expect(book.room('t:1')).toBe(4_000);
    book.adjust('t:1', 15_000);
    // b's claim is still in flight.
    expect(book.room('t:1')).toBe(19_000);
  });

  it('takes the requests in flight of a holder new to the account into its lease first', () => {
    const book = new SpendLeaseBook(() => 0);
    // 500 left beside 2,500 in flight: not enough for a claim.
    expect(book.acquire('a', 't:1', ask(3_000, 1_000, 1_000, 0, 2_500)).granted).toBe(-1);
    expect(book.room('t:1')).toBe(500);
  });

  it('forgets accounts nobody holds and nobody touched for a minute', () => {
    let now = 0;
    const book = new SpendLeaseBook(() => now);
    const held = book.acquire('a', 't:1', ask(5_000, 1_000));
    book.acquire('a', 't:2', ask(5_000, 1_000));
    book.report('a', 't:1', { generation: held.generation, spent: 0, released: 1_000 });
    now = 61_000;
    book.sweep();
    expect(book.room('t:1')).toBeUndefined();
    expect(book.room('t:2')).toBe(4_000);
  });
});
