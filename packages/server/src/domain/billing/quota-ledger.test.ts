import { describe, expect, it } from 'vitest';
import { reserveNow } from './testing/reserve-now.ts';
import { QuotaLedger, type TokenBalance, type UserBalance } from './quota-ledger.ts';

const token = (remainQuota: number, unlimited = false): TokenBalance => ({ id: 1, remainQuota, usedQuota: 0, unlimited });
const user = (quota: number): UserBalance => ({ id: 7, quota, usedQuota: 0, requestCount: 0 });

describe('quota ledger', () => {
  it('holds on token and user, settles to the exact amount and queues one aggregated delta', () => {
    const ledger = new QuotaLedger();
    const t = token(1000);
    const u = user(5000);
    const held = reserveNow(ledger, t, u, 300);
    if (!held.ok) throw new Error('refused');
    expect([t.remainQuota, u.quota]).toEqual([700, 4700]);
    ledger.settle(held.reservation, 120, 3, { user_id: 7, type: 2, quota: 120 });
    expect([t.remainQuota, t.usedQuota, u.quota, u.usedQuota, u.requestCount]).toEqual([880, 120, 4880, 120, 1]);
    const batch = ledger.takeBatch();
    expect(batch?.tokens.get(1)).toEqual({ remain: -120, used: 120 });
    expect(batch?.users.get(7)).toEqual({ quota: -120, used: 120, requests: 1 });
    expect(batch?.channels.get(3)).toBe(120);
    expect(batch?.logs).toHaveLength(1);
  });

  it('refunds exactly once and never after settling', () => {
    const ledger = new QuotaLedger();
    const t = token(1000);
    const u = user(5000);
    const held = reserveNow(ledger, t, u, 300);
    if (!held.ok) throw new Error('refused');
    ledger.refund(held.reservation);
    ledger.refund(held.reservation);
    ledger.settle(held.reservation, 50, 1, undefined);
    expect([t.remainQuota, u.quota, u.requestCount]).toEqual([1000, 5000, 0]);
  });

  it('refuses an empty token or user; unlimited tokens skip only their own check', () => {
    const ledger = new QuotaLedger();
    expect(reserveNow(ledger, token(0), user(5000), 300)).toEqual({ ok: false, refusedBy: 'token' });
    expect(reserveNow(ledger, token(1000), user(0), 300)).toEqual({ ok: false, refusedBy: 'user' });
    // A balance below the hold pays for a request that costs what it has (the last of the room).
    expect(reserveNow(new QuotaLedger(), token(100), user(5000), 300, 300, 100).ok).toBe(true);
    expect(reserveNow(ledger, token(0, true), user(0), 0)).toEqual({ ok: false, refusedBy: 'user' });
    const unlimited = token(0, true);
    expect(reserveNow(ledger, unlimited, user(5000), 300).ok).toBe(true);
    expect(unlimited.remainQuota).toBe(-300);
  });

  it('puts a failed batch back and counts unwritten movements for cache reloads', () => {
    const ledger = new QuotaLedger();
    const held = reserveNow(ledger, token(1000), user(5000), 100);
    if (!held.ok) throw new Error('refused');
    ledger.settle(held.reservation, 100, 1, undefined);
    const batch = ledger.takeBatch();
    expect(ledger.unwrittenToken(1)).toEqual({ remain: -100, used: 100 });
    ledger.finishBatch(batch);
    expect(ledger.unwrittenUser(7)).toEqual({ quota: -100, used: 100, requests: 1 });
    ledger.finishBatch(ledger.takeBatch() && undefined);
    expect(ledger.hasUnwritten).toBe(false);
  });

  it('tells a stop when no request holds quota any more: each settled or refunded once, or not within the bound', async () => {
    const ledger = new QuotaLedger();
    expect(await ledger.whenNothingHeld(0)).toBe(true);
    const first = reserveNow(ledger, token(1000), user(5000), 100);
    const second = reserveNow(ledger, token(1000), user(5000), 100);
    if (!first.ok || !second.ok) throw new Error('refused');
    expect(ledger.requestsHolding).toBe(2);
    expect(await ledger.whenNothingHeld(10)).toBe(false);

    const waited = ledger.whenNothingHeld(60_000);
    let told = false;
    void waited.then(() => (told = true));
    ledger.settle(first.reservation, 40, 1, undefined);
    // A second settle or refund of the same reservation ends nothing more.
    ledger.settle(first.reservation, 40, 1, undefined);
    ledger.refund(first.reservation);
    await Promise.resolve();
    expect([told, ledger.requestsHolding]).toEqual([false, 1]);
    ledger.refund(second.reservation);
    expect(await waited).toBe(true);
    expect(ledger.requestsHolding).toBe(0);
  });
});
