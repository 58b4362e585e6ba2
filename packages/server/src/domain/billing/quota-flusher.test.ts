import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logRowText, type LogEntry, type LogRowText } from '../logs/log-row.ts';
import type { LogWriter } from '../logs/log-writer.repository.ts';
import type { JournalMark } from '../../core/platform/append-journal.ts';
import { createLogger } from '../../core/platform/logger.ts';
import { seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { PendingDeltas } from './pending-deltas.ts';
import { QuotaFlusher } from './quota-flusher.ts';
import { QuotaJournalRepository } from './quota-journal.repository.ts';
import type { QuotaLedger } from './quota-ledger.ts';
import { QuotaRepository } from './quota.repository.ts';

/**
 * A write whose COMMIT went through but whose answer was lost with the connection (a database
 * restarting, a network cut) fails for the flusher all the same. Written again blindly it would
 * charge twice; the journal's watermarks, moved in the same transactions, tell what is already in.
 * On PostgreSQL and MySQL (a SQLite write reports exactly whether it committed).
 */
describe.each(testDatabases().filter((database) => database.dialect !== 'sqlite'))('the quota flusher after a lost COMMIT answer on $dialect', (database) => {
  let testApp: TestApp;
  let ids: { userId: number; tokenId: number };
  const journalName = 'lostcommit01';

  beforeAll(async () => {
    testApp = await createTestApp(database);
    const user = await createTestUser(testApp, { quota: 10_000 });
    ids = { userId: user.id, tokenId: (await seedToken(testApp, user.id, { remainQuota: 5_000 })).id };
    await new QuotaJournalRepository(testApp.context.database, testApp.context.logDatabase).register(journalName, 1_700_000_000);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** Two journaled charges of 100 and 50, as the ledger hands them to the flusher in one batch. */
  function ledgerWithOneBatch(): QuotaLedger {
    const batch = new PendingDeltas();
    const log = (requestId: string, quota: number): LogEntry => ({ user_id: ids.userId, type: 2, quota, token_id: ids.tokenId, request_id: requestId });
    batch.addToken(ids.tokenId, -150, 150);
    batch.addUser(ids.userId, -150, 150, 2);
    batch.logs = [
      { seq: 1, row: logRowText(log('lost-commit-1', 100), 1_700_000_000) },
      { seq: 2, row: logRowText(log('lost-commit-2', 50), 1_700_000_000) },
    ];
    batch.highSeq = 2;
    let taken = false;
    let inFlight = false;
    const ledger = {
      takeBatch: () => {
        if (taken || inFlight) return undefined;
        taken = true;
        inFlight = true;
        return batch;
      },
      finishBatch: () => {
        inFlight = false;
      },
      get hasUnwritten() {
        return !taken || inFlight;
      },
    };
    return ledger as unknown as QuotaLedger;
  }

  it('writes each charge and each log row once although their first writes failed after committing', async () => {
    const context = testApp.context;
    const realQuota = new QuotaRepository(context.database);
    let quotaCalls = 0;
    const quotaRepository = {
      async writeBatch(batch: PendingDeltas, now: number, mark?: JournalMark, again?: boolean) {
        quotaCalls += 1;
        await realQuota.writeBatch(batch, now, mark, again);
        if (quotaCalls === 1) throw Object.assign(new Error('Connection terminated unexpectedly'), {});
      },
    } as unknown as QuotaRepository;
    let logCalls = 0;
    const logWriter = {
      async recordRows(rows: readonly LogRowText[], mark?: JournalMark) {
        logCalls += 1;
        await context.logWriter.recordRows(rows, mark);
        if (logCalls === 1) throw Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
      },
    } as unknown as LogWriter;
    const marks = new QuotaJournalRepository(context.database, context.logDatabase);
    const applied: number[] = [];
    const flusher = new QuotaFlusher({
      ledger: ledgerWithOneBatch(),
      repository: quotaRepository,
      logWriter,
      clock: context.clock,
      logger: createLogger('silent'),
      journal: { name: journalName, applied: (seq) => void applied.push(seq) },
      logMark: (name) => marks.logMark(name, 1_700_000_000),
    });
    for (let round = 0; round < 4; round += 1) await flusher.flush();

    expect({ quotaCalls, logCalls }).toEqual({ quotaCalls: 2, logCalls: 1 });
    const { db } = context.database;
    const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', ids.tokenId).executeTakeFirstOrThrow();
    const user = await db.selectFrom('users').select(['quota', 'request_count']).where('id', '=', ids.userId).executeTakeFirstOrThrow();
    const logs = await context.logDatabase.db.selectFrom('logs').select('request_id').where('request_id', 'like', 'lost-commit-%').execute();
    expect({
      tokenRemain: Number(token.remain_quota),
      tokenUsed: Number(token.used_quota),
      userQuota: Number(user.quota),
      requests: Number(user.request_count),
      logs: logs.map((row) => row.request_id).sort(),
    }).toEqual({ tokenRemain: 4_850, tokenUsed: 150, userQuota: 9_850, requests: 2, logs: ['lost-commit-1', 'lost-commit-2'] });
    expect(applied).toEqual([2]);
    expect(flusher.backlog).toBe(0);
  });
});
