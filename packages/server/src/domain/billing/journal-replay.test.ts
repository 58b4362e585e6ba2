import { appendFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logRowText, type LogEntry } from '../logs/log-row.ts';
import { LiveJournal } from '../../core/platform/append-journal.ts';
import { createLogger } from '../../core/platform/logger.ts';
import { seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { ChargeJournal, chargeJournalPrefix } from './charge-journal.ts';
import { replayOrphanJournals } from './journal-replay.ts';
import { PendingDeltas } from './pending-deltas.ts';
import { QuotaJournalRepository } from './quota-journal.repository.ts';
import { QuotaRepository } from './quota.repository.ts';

/**
 * Replaying the journals of dead processes at start, on the real databases: exactly the records past
 * each database's watermark are applied, once; journals of another database or of a live process are
 * never touched; a torn last line is reported and skipped.
 */
describe.each(testDatabases())('quota journal replay on $dialect', (database) => {
  let testApp: TestApp;
  let folder: string;
  let ids: { userId: number; tokenId: number; channelId: number };
  const warnings: Array<Record<string, unknown>> = [];
  const logger = createLogger('warn', { write: (line: string) => void warnings.push(JSON.parse(line) as Record<string, unknown>) });

  beforeAll(async () => {
    testApp = await createTestApp(database);
    folder = mkdtempSync(join(tmpdir(), 'sb-replay-'));
    const user = await createTestUser(testApp, { quota: 10_000 });
    const token = await seedToken(testApp, user.id, { remainQuota: 5_000 });
    const channelId = await seedChannel(testApp, { key: 'sk-x', baseUrl: 'http://127.0.0.1:9', models: ['gpt-4o-mini'] });
    ids = { userId: user.id, tokenId: token.id, channelId };
  });
  afterAll(async () => {
    await testApp.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const marks = () => new QuotaJournalRepository(testApp.context.database, testApp.context.logDatabase);
  const replay = () =>
    replayOrphanJournals({
      folder,
      marks: marks(),
      quota: new QuotaRepository(testApp.context.database),
      logWriter: testApp.context.logWriter,
      logger,
      now: () => 1_700_000_000,
    });
  const log = (requestId: string, quota: number): LogEntry => ({
    user_id: ids.userId,
    type: 2,
    quota,
    token_id: ids.tokenId,
    channel_id: ids.channelId,
    request_id: requestId,
    other: '{"a":1}',
  });

  /** A journal as a process leaves it when killed: registered, some charges appended, files kept. */
  async function deadJournal(name: string, charges: Array<[string, number]>, register = true): Promise<ChargeJournal> {
    const journal = new ChargeJournal(new LiveJournal({ folder, prefix: chargeJournalPrefix, name, onWriteError: () => undefined }));
    if (register) await marks().register(name, 1_700_000_000);
    for (const [requestId, quota] of charges) journal.record(ids.tokenId, ids.userId, ids.channelId, quota, logRowText(log(requestId, quota), 1_700_000_000));
    return journal;
  }

  async function state() {
    const { db } = testApp.context.database;
    const user = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', ids.userId).executeTakeFirstOrThrow();
    const token = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', ids.tokenId).executeTakeFirstOrThrow();
    const channel = await db.selectFrom('channels').select('used_quota').where('id', '=', ids.channelId).executeTakeFirstOrThrow();
    const logs = await testApp.context.logDatabase.db
      .selectFrom('logs')
      .select(['request_id', 'quota'])
      .where('user_id', '=', ids.userId)
      .orderBy('id')
      .execute();
    return {
      user: { quota: Number(user.quota), used: Number(user.used_quota), requests: Number(user.request_count) },
      token: { remain: Number(token.remain_quota), used: Number(token.used_quota) },
      channel: Number(channel.used_quota),
      logs: logs.map((row) => `${row.request_id}:${Number(row.quota)}`),
    };
  }

  it('applies exactly what the flusher had not written, once, and skips a torn last line', async () => {
    const journal = await deadJournal('dead01', [
      ['r1', 100],
      ['r2', 200],
      ['r3', 300],
    ]);
    // Before the kill the flusher wrote r1 (quota and log row, each with its watermark).
    const first = new PendingDeltas();
    first.addToken(ids.tokenId, -100, 100);
    first.addUser(ids.userId, -100, 100, 1);
    first.addChannel(ids.channelId, 100);
    await new QuotaRepository(testApp.context.database).writeBatch(first, 1_700_000_000, { journal: 'dead01', seq: 1 });
    await testApp.context.logWriter.recordMany([log('r1', 100)], { journal: 'dead01', seq: 1 });
    expect(journal.close()).toEqual({ removed: false });
    // The kill cut the fourth write short.
    const segment = readdirSync(folder).find((file) => file.startsWith(`${chargeJournalPrefix}.dead01.`) && file.endsWith('.log')) ?? '';
    appendFileSync(join(folder, segment), '4\t{"t":1,"u":');

    await replay();
    const replayed = {
      user: { quota: 10_000 - 600, used: 600, requests: 3 },
      token: { remain: 5_000 - 600, used: 600 },
      channel: 600,
      logs: ['r1:100', 'r2:200', 'r3:300'],
    };
    expect(await state()).toEqual(replayed);
    expect(warnings.filter((entry) => entry.msg === 'skipped an unreadable quota journal line')).toMatchObject([{ journal: 'dead01', line: 4 }]);
    expect(readdirSync(folder).filter((file) => file.includes('.dead01.'))).toEqual([]);
    expect(await marks().quotaMarks(['dead01'])).toEqual(new Map());

    // Started again: nothing is left to apply twice.
    await replay();
    expect(await state()).toEqual(replayed);
  });

  it('after a replay cut short between the quota and the log rows, writes only the log rows', async () => {
    const before = await state();
    const journal = await deadJournal('half01', [
      ['h1', 10],
      ['h2', 20],
    ]);
    journal.close();
    // The first replay wrote the quota with its watermark, then died before the log rows.
    const quota = new PendingDeltas();
    quota.addToken(ids.tokenId, -30, 30);
    quota.addUser(ids.userId, -30, 30, 2);
    quota.addChannel(ids.channelId, 30);
    await new QuotaRepository(testApp.context.database).writeBatch(quota, 1_700_000_000, { journal: 'half01', seq: 2 });

    await replay();
    expect(await state()).toEqual({
      user: { quota: before.user.quota - 30, used: before.user.used + 30, requests: before.user.requests + 2 },
      token: { remain: before.token.remain - 30, used: before.token.used + 30 },
      channel: before.channel + 30,
      logs: [...before.logs, 'h1:10', 'h2:20'],
    });
  });

  it('replays a journal an older version wrote (each row an object of its columns) and skips a row that is not a log row', async () => {
    const before = await state();
    await marks().register('older01', 1_700_000_000);
    const line = (seq: number, quota: number, row: string) => `${seq}\t{"t":${ids.tokenId},"u":${ids.userId},"c":${ids.channelId},"q":${quota},${row}}\n`;
    writeFileSync(
      join(folder, `${chargeJournalPrefix}.older01.0.log`),
      line(1, 40, `"l":${JSON.stringify(log('o1', 40))}`) +
        line(2, 60, '"r":[1,"not a log row"]') +
        line(3, 5, `"r":${logRowText({ ...log('o3', 5), created_at: 1_600_000_000 }, 0)}`),
    );

    await replay();
    expect(await state()).toEqual({
      user: { quota: before.user.quota - 45, used: before.user.used + 45, requests: before.user.requests + 2 },
      token: { remain: before.token.remain - 45, used: before.token.used + 45 },
      channel: before.channel + 45,
      logs: [...before.logs, 'o1:40', 'o3:5'],
    });
    const skipped = warnings.filter((entry) => entry.journal === 'older01' && entry.msg === 'skipped an unreadable quota journal line');
    expect(skipped).toMatchObject([{ line: 2 }]);
    // The older row had no date: the replay's clock gives it one, as the flush it missed would have.
    const dated = await testApp.context.logDatabase.db
      .selectFrom('logs')
      .select(['request_id', 'created_at', 'other'])
      .where('request_id', 'in', ['o1', 'o3'])
      .orderBy('request_id')
      .execute();
    expect(dated.map((row) => [row.request_id, Number(row.created_at), row.other])).toEqual([
      ['o1', 1_700_000_000, '{"a":1}'],
      ['o3', 1_600_000_000, '{"a":1}'],
    ]);
  });

  it("leaves a live process's journal and another database's journal alone", async () => {
    const before = await state();
    const alive = await deadJournal('alive01', [['a1', 5]]);
    const foreign = await deadJournal('foreign01', [['f1', 7]], false);
    foreign.close();

    await replay();
    expect(await state()).toEqual(before);
    const left = readdirSync(folder);
    expect(left.filter((file) => file.includes('.alive01.')).length).toBeGreaterThan(0);
    expect(left.filter((file) => file.includes('.foreign01.')).length).toBeGreaterThan(0);

    // Its owner gone (the lock released with its files kept), the live one is replayed at the next start.
    alive.close();
    await replay();
    expect((await state()).logs).toEqual([...before.logs, 'a1:5']);
  });
});
