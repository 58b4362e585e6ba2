import { describe, expect, it } from 'vitest';
import { QuotaLedger, type Reservation, type ReserveResult, type TokenBalance, type UserBalance } from './quota-ledger.ts';

const token = (remainQuota: number, unlimited = false): TokenBalance => ({ id: 1, remainQuota, usedQuota: 0, unlimited });
const user = (quota: number): UserBalance => ({ id: 7, quota, usedQuota: 0, requestCount: 0 });

function held(result: ReserveResult): Reservation {
  if (!result.ok) throw new Error(`refused by the ${result.refusedBy}`);
  return result.reservation;
}

const exposures = (t: TokenBalance, u: UserBalance) => [t.exposure ?? 0, u.exposure ?? 0];

describe('quota ledger exposure', () => {
  it('takes the cheap hold while the balance covers every worst case, and counts the rest as exposure', () => {
    const ledger = new QuotaLedger();
    const t = token(10_000);
    const u = user(50_000);
    const first = held(ledger.reserve(t, u, 500, 4_000));
    const second = held(ledger.reserve(t, u, 500, 4_000));
    expect([first.amount, second.amount]).toEqual([500, 500]);
    expect([first.exposure, second.exposure]).toEqual([3_500, 3_500]);
    expect(exposures(t, u)).toEqual([7_000, 7_000]);
    expect([t.remainQuota, u.quota]).toEqual([9_000, 49_000]);
  });

  it('holds the worst case near the edge and refuses once in-flight worst cases use up the balance', () => {
    const ledger = new QuotaLedger();
    const t = token(10_000);
    const u = user(50_000);
    held(ledger.reserve(t, u, 500, 4_000));
    held(ledger.reserve(t, u, 500, 4_000));
    // Room: 9,000 − 7,000 = 2,000 < 4,000: the edge request holds its whole worst case.
    const edge = held(ledger.reserve(t, u, 500, 4_000));
    expect([edge.amount, edge.exposure]).toEqual([4_000, 0]);
    expect([t.remainQuota, exposures(t, u)]).toEqual([5_000, [7_000, 7_000]]);
    // Room is now 5,000 − 7,000 < 0: refused, and nothing moved.
    expect(ledger.reserve(t, u, 500, 4_000)).toEqual({ ok: false, refusedBy: 'token' });
    expect([t.remainQuota, u.quota, exposures(t, u)]).toEqual([5_000, 45_000, [7_000, 7_000]]);
  });

  it('refuses by the user when the user, not the token, is the edge', () => {
    const ledger = new QuotaLedger();
    const t = token(1_000_000);
    const u = user(6_000);
    expect(held(ledger.reserve(t, u, 500, 4_000)).amount).toBe(500);
    expect(held(ledger.reserve(t, u, 500, 4_000)).amount).toBe(4_000);
    expect(ledger.reserve(t, u, 500, 4_000)).toEqual({ ok: false, refusedBy: 'user' });
  });

  it('an unlimited token leaves only the user room to check, and its exposure is still released', () => {
    const ledger = new QuotaLedger();
    const t = token(0, true);
    const u = user(100_000);
    const reservation = held(ledger.reserve(t, u, 500, 4_000));
    expect(reservation.amount).toBe(500);
    ledger.refund(reservation);
    expect(exposures(t, u)).toEqual([0, 0]);
  });

  it('admits a lone request whose worst case exceeds the balance, holding what the balance has', () => {
    const ledger = new QuotaLedger();
    const t = token(3_000);
    const u = user(50_000);
    const reservation = held(ledger.reserve(t, u, 500, 40_000));
    expect([reservation.amount, reservation.exposure, t.remainQuota]).toEqual([3_000, 37_000, 0]);
  });

  it('adds no exposure when the hold already covers the worst case (max_tokens named)', () => {
    const ledger = new QuotaLedger();
    const t = token(1_000);
    const u = user(5_000);
    const reservation = held(ledger.reserve(t, u, 800, 600));
    expect([reservation.amount, reservation.exposure, exposures(t, u)]).toEqual([800, 0, [0, 0]]);
  });

  it('releases exposure exactly once, on settle or refund', () => {
    const ledger = new QuotaLedger();
    const t = token(100_000);
    const u = user(100_000);
    const settled = held(ledger.reserve(t, u, 500, 4_000));
    const refunded = held(ledger.reserve(t, u, 500, 4_000));
    ledger.settle(settled, 3_000, 1, undefined);
    ledger.settle(settled, 3_000, 1, undefined);
    ledger.refund(settled);
    expect(exposures(t, u)).toEqual([3_500, 3_500]);
    ledger.refund(refunded);
    ledger.refund(refunded);
    ledger.settle(refunded, 100, 1, undefined);
    expect(exposures(t, u)).toEqual([0, 0]);
    expect([t.remainQuota, u.quota]).toEqual([97_000, 97_000]);
  });

  it('never lets requests in flight together spend more than the balance plus one request', () => {
    const ledger = new QuotaLedger();
    const balance = 25_000;
    const t = token(balance);
    const u = user(1_000_000);
    const worst = 4_000;
    const admitted: Reservation[] = [];
    for (let index = 0; index < 100; index += 1) {
      const result = ledger.reserve(t, u, index % 2 === 0 ? 500 : 0, worst);
      if (result.ok) admitted.push(result.reservation);
    }
    for (const reservation of admitted) ledger.settle(reservation, worst, 1, undefined);
    const spent = admitted.length * worst;
    expect(admitted.length).toBeGreaterThanOrEqual(Math.floor(balance / worst));
    expect(spent).toBeLessThanOrEqual(balance + worst);
    expect(t.remainQuota).toBe(balance - spent);
    expect(exposures(t, u)).toEqual([0, 0]);
  });
});
