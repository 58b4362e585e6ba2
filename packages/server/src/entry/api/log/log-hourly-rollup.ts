import { aggregateLogsAfterCursor, type RollUpPace, trailingLogAggregationJob } from '../../../domain/logs/log-cursor-aggregation.ts';
import type { HourlyKey, LogHourlyRepository } from './log-hourly.repository.ts';

/** What the purge repair needs of an hourly table (see LogHourlyRepository), whatever its key columns. */
export interface RepairableHourlyTable {
  /** Seconds per bucket (an hour, or a day): the purge recounts one bucket. */
  readonly bucketSeconds: number;
  transaction<T>(work: (hourly: RepairableHourlyTable) => Promise<T>): Promise<T>;
  readWatermark(): Promise<number>;
  claim(from: number, to: number, now: number): Promise<boolean>;
  deleteUpTo(lastBucket: number): Promise<void>;
  addTotalsOfLogs(upToId: number, created: { from: number; to: number }): Promise<void>;
}

/** Adds the logs after the table's cursor, up to `upTo`, to its hourly totals (never a log twice). */
export function rollUpLogs<Key extends HourlyKey>(repository: LogHourlyRepository<Key>, upTo: number, now: number): Promise<number> {
  return aggregateLogsAfterCursor(repository, upTo, now);
}

/** The periodic roll-up of one hourly table, which keeps log stats over long ranges fast. */
export function logHourlyJob<Key extends HourlyKey>(
  repository: LogHourlyRepository<Key>,
  clock: { unixSeconds(): number },
  pace?: RollUpPace,
): () => Promise<number> {
  return trailingLogAggregationJob(repository, clock, pace);
}

/**
 * After logs older than some time were deleted (oldest first, up to `lastDeletedCreatedAt`), the
 * buckets before that one are gone entirely and that bucket (an hour, or a day of the per-user
 * tables) is recounted from the logs that remain.
 */
export async function repairAfterPurge(repository: RepairableHourlyTable, lastDeletedCreatedAt: number, now: number): Promise<void> {
  const size = repository.bucketSeconds;
  const bucket = lastDeletedCreatedAt - (lastDeletedCreatedAt % size);
  await repository.transaction(async (hourly) => {
    const watermark = await hourly.readWatermark();
    // Locks the cursor row, so a concurrent roll-up waits for the recount.
    await hourly.claim(watermark, watermark, now);
    await hourly.deleteUpTo(bucket);
    await hourly.addTotalsOfLogs(watermark, { from: bucket, to: bucket + size });
  });
}
