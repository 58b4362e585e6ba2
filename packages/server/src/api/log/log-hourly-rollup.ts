import { aggregateLogsAfterCursor, trailingLogAggregationJob } from '../../logs/log-cursor-aggregation.ts';
import type { HourlyLogTotals, LogHourlyRepository } from './log-hourly.repository.ts';

/** Adds the logs after the cursor, up to `upTo`, to the hourly totals (never a log twice). */
export function rollUpLogs(repository: LogHourlyRepository, upTo: number, now: number): Promise<number> {
  return aggregateLogsAfterCursor<HourlyLogTotals>(repository, upTo, now);
}

/** The every-minute roll-up that keeps log stats over long ranges fast. */
export function logHourlyJob(repository: LogHourlyRepository, clock: { unixSeconds(): number }): () => Promise<number> {
  return trailingLogAggregationJob<HourlyLogTotals>(repository, clock);
}

/**
 * After logs older than some time were deleted (oldest first, up to `lastDeletedCreatedAt`), the hours
 * before that one are gone entirely and that hour is recounted from the logs that remain.
 */
export async function repairAfterPurge(repository: LogHourlyRepository, lastDeletedCreatedAt: number, now: number): Promise<void> {
  const bucket = lastDeletedCreatedAt - (lastDeletedCreatedAt % 3600);
  await repository.transaction(async (trx) => {
    const watermark = await repository.readWatermark(trx);
    // Locks the cursor row, so a concurrent roll-up waits for the recount.
    await repository.claim(trx, watermark, watermark, now);
    await repository.deleteUpTo(trx, bucket);
    for (const row of await repository.totalsOfLogs(0, watermark, { executor: trx, created: { from: bucket, to: bucket + 3600 } })) await repository.add(trx, row);
  });
}
