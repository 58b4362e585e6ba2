import { aggregateLogsAfterCursor, trailingLogAggregationJob } from '../../logs/log-cursor-aggregation.ts';
import type { HourlyKey, HourlyLogTotals, LogHourlyRepository } from './log-hourly.repository.ts';

/** What the purge repair needs of an hourly table, whatever its key columns. */
export type RepairableHourlyTable = Pick<LogHourlyRepository<HourlyKey>, 'transaction' | 'readWatermark' | 'claim' | 'deleteUpTo' | 'addTotalsOfLogs'>;

/** Adds the logs after the table's cursor, up to `upTo`, to its hourly totals (never a log twice). */
export function rollUpLogs<Key extends HourlyKey>(repository: LogHourlyRepository<Key>, upTo: number, now: number): Promise<number> {
  return aggregateLogsAfterCursor<HourlyLogTotals<Key>>(repository, upTo, now);
}

/** The every-minute roll-up of one hourly table, which keeps log stats over long ranges fast. */
export function logHourlyJob<Key extends HourlyKey>(repository: LogHourlyRepository<Key>, clock: { unixSeconds(): number }): () => Promise<number> {
  return trailingLogAggregationJob<HourlyLogTotals<Key>>(repository, clock);
}

/**
 * After logs older than some time were deleted (oldest first, up to `lastDeletedCreatedAt`), the hours
 * before that one are gone entirely and that hour is recounted from the logs that remain.
 */
export async function repairAfterPurge(repository: RepairableHourlyTable, lastDeletedCreatedAt: number, now: number): Promise<void> {
  const bucket = lastDeletedCreatedAt - (lastDeletedCreatedAt % 3600);
  await repository.transaction(async (trx) => {
    const watermark = await repository.readWatermark(trx);
    // Locks the cursor row, so a concurrent roll-up waits for the recount.
    await repository.claim(trx, watermark, watermark, now);
    await repository.deleteUpTo(trx, bucket);
    await repository.addTotalsOfLogs(trx, watermark, { from: bucket, to: bucket + 3600 });
  });
}
