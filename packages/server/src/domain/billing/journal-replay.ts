import type { LogWriter } from '../logs/log-writer.repository.ts';
import { journalNames, OrphanJournal, type LinePlace } from '../../core/platform/append-journal.ts';
import type { Logger } from '../../core/platform/logger.ts';
import { chargeJournalPrefix, decodeCharge, type JournaledCharge } from './charge-journal.ts';
import { PendingDeltas } from './pending-deltas.ts';
import { logRowsPerWrite } from './quota-flusher.ts';
import type { QuotaJournalRepository } from './quota-journal.repository.ts';
import type { QuotaRepository } from './quota.repository.ts';

export interface ReplayDependencies {
  readonly folder: string;
  readonly marks: QuotaJournalRepository;
  readonly quota: QuotaRepository;
  readonly logWriter: LogWriter;
  readonly logger: Logger;
  /** Unix seconds. */
  readonly now: () => number;
  /** The quota movements a replay wrote (other instances' caches hear of them). */
  readonly onReplayed?: (batch: PendingDeltas) => void;
  /** Every journal adopted, once replayed: the charges of it that were not in the database (the spending guard's book settles its dead holder). */
  readonly onAdopted?: (journal: string, unwritten: readonly JournaledCharge[]) => void;
}

/**
 * At start, before any request: applies the journals that processes of this database left behind
 * (killed before their flusher wrote everything), then deletes them. Only a journal registered in
 * this main database is touched (one of another database in a shared folder is left alone), and only
 * when its lock is free (a live instance's journal never is). Each database's watermark says what is
 * already applied there, so a replay that is itself cut short just runs again at the next start.
 */
export async function replayOrphanJournals(dependencies: ReplayDependencies): Promise<void> {
  const { folder, logger } = dependencies;
  const names = journalNames(folder, chargeJournalPrefix);
  if (names.length === 0) return;
  const ours = await dependencies.marks.quotaMarks(names);
  for (const name of names) if (!ours.has(name)) logger.debug({ journal: name, folder }, 'quota journal of another database left alone');
  for (const [name, quotaSeq] of ours) {
    const orphan = OrphanJournal.adopt(folder, chargeJournalPrefix, name);
    if (!orphan) continue;
    let unwritten: readonly JournaledCharge[];
    try {
      unwritten = await replayOne(orphan, quotaSeq, dependencies);
    } catch (error) {
      orphan.release();
      throw error;
    }
    orphan.discard();
    await dependencies.marks.forget(name);
    dependencies.onAdopted?.(name, unwritten);
  }
}

function readCharges(orphan: OrphanJournal, now: number): { charges: JournaledCharge[]; unreadable: LinePlace[] } {
  const { lines, unreadable } = orphan.read();
  const charges: JournaledCharge[] = [];
  for (const line of lines) {
    const charge = decodeCharge(line.seq, line.payload, now);
    if (charge) charges.push(charge);
    else unreadable.push(line);
  }
  return { charges, unreadable };
}

/** Answers the charges that were not in the database before the replay. */
async function replayOne(orphan: OrphanJournal, quotaSeq: number, dependencies: ReplayDependencies): Promise<JournaledCharge[]> {
  const { marks, logger } = dependencies;
  const now = dependencies.now();
  const { charges, unreadable } = readCharges(orphan, now);
  // A write cut short (the process killed mid-write, a full disk) leaves a torn line: its charge was
  // never complete, so its answer was not either. Reported, skipped, never a reason not to start.
  for (const place of unreadable) logger.warn({ journal: orphan.name, file: place.file, line: place.line }, 'skipped an unreadable quota journal line');
  const logSeq = await marks.logMark(orphan.name, now);

  const batch = new PendingDeltas();
  for (const charge of charges) {
    if (charge.seq <= quotaSeq) continue;
    batch.addToken(charge.tokenId, -charge.quota, charge.quota);
    batch.addUser(charge.userId, -charge.quota, charge.quota, 1);
    batch.addChannel(charge.channelId, charge.quota);
    batch.highSeq = Math.max(batch.highSeq, charge.seq);
  }
  if (batch.highSeq > 0) await dependencies.quota.writeBatch(batch, now, { journal: orphan.name, seq: batch.highSeq });

  const logged = charges.filter((charge) => charge.seq > logSeq && charge.row !== undefined);
  // Written as the flusher writes them: 1,000 rows per transaction, each moving the log watermark.
  for (let start = 0; start < logged.length; start += logRowsPerWrite) {
    const slice = logged.slice(start, start + logRowsPerWrite);
    const rows = slice.flatMap((charge) => (charge.row === undefined ? [] : [charge.row]));
    await dependencies.logWriter.recordRows(rows, { journal: orphan.name, seq: slice.at(-1)?.seq ?? 0 });
  }
  const replayed = charges.filter((charge) => charge.seq > quotaSeq);
  if (batch.highSeq > 0 || logged.length > 0) {
    logger.warn(
      { journal: orphan.name, charges: replayed.length, quota: replayed.reduce((sum, charge) => sum + charge.quota, 0), logRows: logged.length },
      'replayed the quota journal of a process that stopped before writing its charges',
    );
    dependencies.onReplayed?.(batch);
  }
  return replayed;
}
