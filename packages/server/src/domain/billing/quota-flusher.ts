import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LogWriter } from '../logs/log-writer.repository.ts';
import type { JournalMark } from '../../core/platform/append-journal.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { JournaledLog, PendingDeltas } from './pending-deltas.ts';
import type { QuotaLedger } from './quota-ledger.ts';
import type { QuotaRepository } from './quota.repository.ts';

/**
 * Log rows per write (one transaction with its journal watermark). Each commit rewrites the tail
 * pages of the logs table and its indexes, so bigger writes cost less per row: 1,000 rows took
 * 20 µs of CPU per row on SQLite against 28.5 for 200 (writer thread and main thread together, a
 * growing 200,000-row table), and 8.4 against 10.7 of the gateway's CPU on PostgreSQL. A thousand
 * rows hold SQLite's write lock for about 20 ms; reads go on meanwhile (WAL).
 */
export const logRowsPerWrite = 1_000;

/** After failed writes (the database down), the timer's next try waits this long, doubling up to the most. */
const retryBackoffMs = { first: 500, most: 5_000 };

/**
 * Writes the ledger's queued movements every `intervalMs` (well within a second) and once more on
 * shutdown: first the aggregated quota updates in one transaction, then the log rows in slices.
 * A failed write goes back to the queue and is retried on the next tick, so nothing is lost while
 * the process runs and a clean stop writes everything. With a journal, each write also moves the
 * journal's watermark in its own database, and the journal hears how far everything is written.
 */
export class QuotaFlusher {
  private readonly ledger: QuotaLedger;
  private readonly repository: QuotaRepository;
  private readonly logWriter: LogWriter;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly onWritten: (batch: PendingDeltas) => void;
  private readonly journal: FlushedJournal | undefined;
  private readonly logMark: ((journal: string) => Promise<number>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Logs whose quota part is written but whose own write failed; retried first. */
  private unwrittenLogs: JournaledLog[] = [];
  /** The journal sequence up to which quota movements are written (batches go in order). */
  private quotaWrittenSeq = 0;
  private reportedSeq = 0;
  /** Writes failed in a row: the first is logged, the others wait longer each (the database is down). */
  private failures = 0;
  private retryAt = 0;
  /**
   * A batch whose write failed: with a journal it is written again as it is (still the ledger's
   * batch in flight), because the failure may have come after its COMMIT did (the connection lost
   * before the answer); the watermark written with it tells. Without one it rejoins the queue.
   */
  private failedBatch: PendingDeltas | undefined;
  /** Likewise for log rows: a failed slice may be in; the log watermark tells which rows are. */
  private logsMayBeWritten = false;

  constructor(dependencies: {
    ledger: QuotaLedger;
    repository: QuotaRepository;
    logWriter: LogWriter;
    clock: Clock;
    logger: Logger;
    onWritten?: (batch: PendingDeltas) => void;
    journal?: FlushedJournal;
    /** Reads the journal's log watermark (needed with `journal`). */
    logMark?: (journal: string) => Promise<number>;
  }) {
    this.ledger = dependencies.ledger;
    this.repository = dependencies.repository;
    this.logWriter = dependencies.logWriter;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.onWritten = dependencies.onWritten ?? (() => undefined);
    this.journal = dependencies.journal;
    this.logMark = dependencies.logMark;
  }

  /** Log rows whose quota part is written but which are not yet in the logs table. */
  get backlog(): number {
    return this.unwrittenLogs.length;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => {
      if (Date.now() >= this.retryAt) void this.flush();
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    // Requests finishing during shutdown may queue more; write until nothing is left (or it fails).
    for (let round = 0; round < 10 && (this.ledger.hasUnwritten || this.unwrittenLogs.length > 0); round += 1) await this.flush();
  }

  /** Writes everything queued now; concurrent calls share one write. */
  flush(): Promise<void> {
    this.running ??= this.writeOnce().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async writeOnce(): Promise<void> {
    const again = this.failedBatch;
    const batch = again ?? this.ledger.takeBatch();
    if (batch) {
      const mark = this.mark(batch.highSeq);
      try {
        await this.repository.writeBatch(batch, this.clock.unixSeconds(), mark, again !== undefined);
      } catch (error) {
        this.failed(error, 'quota batch write failed; kept in memory and written again when the database answers');
        if (mark) this.failedBatch = batch;
        else this.ledger.finishBatch(batch);
        return;
      }
      this.failedBatch = undefined;
      this.unwrittenLogs = this.unwrittenLogs.concat(batch.logs);
      this.quotaWrittenSeq = Math.max(this.quotaWrittenSeq, batch.highSeq);
      this.ledger.finishBatch(undefined);
      this.onWritten(batch);
    }
    const logsWritten = await this.writeLogs();
    this.reportWritten();
    if (logsWritten && this.failures > 0) {
      this.logger.info({ failedAttempts: this.failures }, 'quota and log writes reach the database again');
      this.failures = 0;
      this.retryAt = 0;
    }
  }

  /**
   * One line for an outage, not two a second: the first failure is logged, the next ones are retried
   * further apart (up to 5 s) without a line, and the first write that goes through again says so.
   */
  private failed(error: unknown, message: string): void {
    if (this.failures === 0) this.logger.error({ err: error }, message);
    this.retryAt = Date.now() + Math.min(retryBackoffMs.first * 2 ** this.failures, retryBackoffMs.most);
    this.failures += 1;
  }

  private mark(seq: number): JournalMark | undefined {
    return this.journal && seq > 0 ? { journal: this.journal.name, seq } : undefined;
  }

  /**
   * Tells the journal the highest sequence whose quota and log row are both written. Log rows are
   * queued in sequence order once their quota is written, so that is the quota's watermark, or just
   * before the first journaled log row still waiting.
   */
  private reportWritten(): void {
    if (!this.journal) return;
    const waiting = this.unwrittenLogs.find((log) => log.seq > 0);
    const written = waiting ? Math.min(this.quotaWrittenSeq, waiting.seq - 1) : this.quotaWrittenSeq;
    if (written <= this.reportedSeq) return;
    this.reportedSeq = written;
    try {
      this.journal.applied(written);
    } catch (error) {
      this.logger.warn({ err: error }, 'quota journal rotation failed');
    }
  }

  /** False when a slice failed to write (the rest waits for the next try). */
  private async writeLogs(): Promise<boolean> {
    if (this.logsMayBeWritten && this.journal && this.logMark) {
      let written: number;
      try {
        written = await this.logMark(this.journal.name);
      } catch (error) {
        this.failed(error, 'log batch write failed; kept in memory and written again when the database answers');
        return false;
      }
      this.unwrittenLogs = this.unwrittenLogs.filter((log) => log.seq === 0 || log.seq > written);
      this.logsMayBeWritten = false;
    }
    while (this.unwrittenLogs.length > 0) {
      const slice = this.unwrittenLogs.slice(0, logRowsPerWrite);
      let highSeq = 0;
      for (const log of slice) highSeq = Math.max(highSeq, log.seq);
      try {
        await this.logWriter.recordRows(
          slice.map((log) => log.row),
          this.mark(highSeq),
        );
      } catch (error) {
        this.failed(error, 'log batch write failed; kept in memory and written again when the database answers');
        if (highSeq > 0) this.logsMayBeWritten = true;
        return false;
      }
      this.unwrittenLogs = this.unwrittenLogs.slice(slice.length);
      if (this.unwrittenLogs.length > 0) await nextTurn();
    }
    return true;
  }
}

/** The journal as the flusher sees it: the name its watermarks carry, and how far it is written. */
export interface FlushedJournal {
  readonly name: string;
  applied(seq: number): void;
}
