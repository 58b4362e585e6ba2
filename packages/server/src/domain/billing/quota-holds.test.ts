import { describe, expect, it } from 'vitest';
import { logRowText, type LogEntry } from '../logs/log-row.ts';
import { reserveNow } from './testing/reserve-now.ts';
import { QuotaLedger, type TokenBalance, type UserBalance } from './quota-ledger.ts';

const token = (remainQuota: number): TokenBalance => ({ id: 1, remainQuota, usedQuota: 0, unlimited: false });
const user = (quota: number): UserBalance => ({ id: 7, quota, usedQuota: 0, requestCount: 0 });

/** Stands in for the journal: keeps what it is given and numbers it. */
function recordingJournal() {
  const records: Array<{ tokenId: number; userId: number; channelId: number; quota: number; row: string | undefined }> = [];
  return {
    records,
    record(tokenId: number, userId: number, channelId: number, quota: number, row: string | undefined): number {
      records.push({ tokenId, userId, channelId, quota, row });
      return 40 + records.length;
    },
    written: () => Promise.resolve(),
  };
}

describe('quota holds', () => {
  it('move the balances in memory only: nothing is queued for the database, reloads still count them', () => {
    const ledger = new QuotaLedger();
    const t = token(1000);
    const u = user(5000);
    const held = reserveNow(ledger, t, u, 300);
    if (!held.ok) throw new Error('refused');
    expect([t.remainQuota, u.quota]).toEqual([700, 4700]);
    expect(ledger.hasUnwritten).toBe(false);
    expect(ledger.takeBatch()).toBeUndefined();
    // A cache reload computes "database row + unwritten": the hold must still be subtracted.
    expect(ledger.unwrittenToken(1)).toEqual({ remain: -300, used: 0 });
    expect(ledger.unwrittenUser(7)).toEqual({ quota: -300, used: 0, requests: 0 });
  });

  it('are gone after a refund, with nothing to write', () => {
    const ledger = new QuotaLedger();
    const held = reserveNow(ledger, token(1000), user(5000), 300);
    if (!held.ok) throw new Error('refused');
    ledger.refund(held.reservation);
    expect(ledger.takeBatch()).toBeUndefined();
    expect(ledger.unwrittenToken(1)).toEqual({ remain: 0, used: 0 });
    expect(ledger.unwrittenUser(7)).toEqual({ quota: 0, used: 0, requests: 0 });
  });

  it('become the charge alone on settling, recorded in the journal with its log row and sequence', () => {
    const journal = recordingJournal();
    const ledger = new QuotaLedger(journal);
    const t = token(1000);
    const u = user(5000);
    const first = reserveNow(ledger, t, u, 300);
    const second = reserveNow(ledger, t, u, 200);
    if (!first.ok || !second.ok) throw new Error('refused');
    const log: LogEntry = { user_id: 7, type: 2, created_at: 1_700_000_000, quota: 120, request_id: 'r1' };
    ledger.settle(first.reservation, 120, 3, log);
    // The row is made into its text once: the journal line and the flusher's queue share it.
    const row = logRowText(log, 0);
    expect(journal.records).toEqual([{ tokenId: 1, userId: 7, channelId: 3, quota: 120, row }]);
    // The second request is still in flight: its hold counts in memory, not in the batch.
    expect(ledger.unwrittenToken(1)).toEqual({ remain: -320, used: 120 });
    const batch = ledger.takeBatch();
    expect(batch?.tokens.get(1)).toEqual({ remain: -120, used: 120 });
    expect(batch?.users.get(7)).toEqual({ quota: -120, used: 120, requests: 1 });
    expect(batch?.channels.get(3)).toBe(120);
    expect(batch?.highSeq).toBe(41);
    expect(batch?.logs).toEqual([{ seq: 41, row }]);
    ledger.finishBatch(undefined);
    ledger.refund(second.reservation);
    expect([t.remainQuota, t.usedQuota, u.quota, u.usedQuota, u.requestCount]).toEqual([880, 120, 4880, 120, 1]);
    expect(ledger.unwrittenToken(1)).toEqual({ remain: 0, used: 0 });
  });

  it('keep the highest sequence of a batch that failed and went back to the queue', () => {
    const ledger = new QuotaLedger(recordingJournal());
    for (const quota of [10, 20]) {
      const held = reserveNow(ledger, token(1000), user(5000), 50);
      if (!held.ok) throw new Error('refused');
      ledger.settle(held.reservation, quota, 1, undefined);
      if (quota === 10) ledger.finishBatch(ledger.takeBatch());
    }
    const batch = ledger.takeBatch();
    expect(batch?.highSeq).toBe(42);
    expect(batch?.users.get(7)).toEqual({ quota: -30, used: 30, requests: 2 });
  });
});
