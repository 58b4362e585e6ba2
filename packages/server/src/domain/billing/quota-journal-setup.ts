import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { LogWriter } from '../logs/log-writer.repository.ts';
import { LiveJournal } from '../../core/platform/append-journal.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import type { Logger } from '../../core/platform/logger.ts';
import { ChargeJournal, chargeJournalPrefix, type JournaledCharge } from './charge-journal.ts';
import { replayOrphanJournals } from './journal-replay.ts';
import type { PendingDeltas } from './pending-deltas.ts';
import { QuotaJournalRepository } from './quota-journal.repository.ts';
import { QuotaRepository } from './quota.repository.ts';

export interface QuotaJournalSetup {
  /** QUOTA_JOURNAL_DIR (resolved by config): the folder of the journals. */
  readonly folder: string;
  readonly database: DatabaseHandle;
  readonly logDatabase: DatabaseHandle;
  readonly logWriter: LogWriter;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly onReplayed?: (batch: PendingDeltas) => void;
  readonly onAdopted?: (journal: string, unwritten: readonly JournaledCharge[]) => void;
}

export interface OpenedQuotaJournal {
  readonly journal: ChargeJournal;
  /** On a clean stop, after the flusher: removes the journal when everything in it is written. */
  close(): Promise<void>;
}

/**
 * Start-up of the quota journal, before the caches load and before any request: replays what dead
 * processes of this database left, then starts this process's own journal under a fresh name. The
 * order matters: the lock is taken when the files are created, and the journal is registered in the
 * databases only then, so an instance starting beside this one never takes it for an orphan.
 */
export async function openQuotaJournal(setup: QuotaJournalSetup): Promise<OpenedQuotaJournal> {
  const { folder, logger } = setup;
  const marks = new QuotaJournalRepository(setup.database, setup.logDatabase);
  let live: LiveJournal;
  try {
    mkdirSync(folder, { recursive: true });
    await replayOrphanJournals({
      folder,
      marks,
      quota: new QuotaRepository(setup.database),
      logWriter: setup.logWriter,
      logger,
      now: () => setup.clock.unixSeconds(),
      ...(setup.onReplayed ? { onReplayed: setup.onReplayed } : {}),
      ...(setup.onAdopted ? { onAdopted: setup.onAdopted } : {}),
    });
    live = new LiveJournal({
      folder,
      prefix: chargeJournalPrefix,
      name: randomBytes(8).toString('hex'),
      onWriteError: (error) =>
        logger.error({ err: error, folder }, 'quota journal write failed: charges still reach the database, but a crash now would lose those not yet written'),
    });
  } catch (error) {
    throw new Error(`Cannot open the quota journal in ${folder} (QUOTA_JOURNAL_DIR): ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
  try {
    await marks.register(live.name, setup.clock.unixSeconds());
  } catch (error) {
    live.close();
    throw error;
  }
  const journal = new ChargeJournal(live);
  return {
    journal,
    async close() {
      if (!journal.close().removed) {
        logger.warn({ journal: journal.name, folder }, 'quota journal kept: some charges are not written yet; the next start replays them');
        return;
      }
      await marks.forget(journal.name).catch((error: unknown) => logger.warn({ err: error }, 'could not remove the quota journal row'));
    },
  };
}
