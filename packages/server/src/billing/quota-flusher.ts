import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LogEntry, LogWriter } from '../logs/log-writer.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import { PendingDeltas } from './pending-deltas.ts';
import type { QuotaLedger } from './quota-ledger.ts';
import type { QuotaRepository } from './quota.repository.ts';

/** Log rows per INSERT: small slices keep each write short. */
const logRowsPerInsert = 200;

/**
 * Writes the ledger's queued movements every `intervalMs` (well within a second) and once more on
 * shutdown: first the aggregated quota updates in one transaction, then the log rows in slices.
 * A failed write goes back to the queue and is retried on the next tick, so nothing is lost while
 * the process runs and a clean stop writes everything.
 */
export class QuotaFlusher {
  private readonly ledger: QuotaLedger;
  private readonly repository: QuotaRepository;
  private readonly logWriter: LogWriter;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly onWritten: (batch: PendingDeltas) => void;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Logs whose quota part is written but whose own write failed; retried first. */
  private unwrittenLogs: LogEntry[] = [];

  constructor(dependencies: { ledger: QuotaLedger; repository: QuotaRepository; logWriter: LogWriter; clock: Clock; logger: Logger; onWritten?: (batch: PendingDeltas) => void }) {
    this.ledger = dependencies.ledger;
    this.repository = dependencies.repository;
    this.logWriter = dependencies.logWriter;
    this.clock = dependencies.clock;
    this.logger = dependencies.logger;
    this.onWritten = dependencies.onWritten ?? (() => undefined);
  }

  /** Log rows whose quota part is written but which are not yet in the logs table. */
  get backlog(): number {
    return this.unwrittenLogs.length;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.flush(), intervalMs);
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
    const batch = this.ledger.takeBatch();
    if (batch) {
      try {
        await this.repository.writeBatch(batch, this.clock.unixSeconds());
      } catch (error) {
        this.logger.error({ err: error }, 'quota batch write failed; retrying on the next tick');
        this.ledger.finishBatch(batch);
        return;
      }
      this.unwrittenLogs = this.unwrittenLogs.concat(batch.logs);
      this.ledger.finishBatch(undefined);
      this.onWritten(batch);
    }
    await this.writeLogs();
  }

  private async writeLogs(): Promise<void> {
    while (this.unwrittenLogs.length > 0) {
      const slice = this.unwrittenLogs.slice(0, logRowsPerInsert);
      try {
        await this.logWriter.recordMany(slice);
      } catch (error) {
        this.logger.error({ err: error }, 'log batch write failed; retrying on the next tick');
        return;
      }
      this.unwrittenLogs = this.unwrittenLogs.slice(slice.length);
      if (this.unwrittenLogs.length > 0) await nextTurn();
    }
  }
}
