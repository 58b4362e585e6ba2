import { type RepairableHourlyTable, repairAfterPurge } from './log-hourly-rollup.ts';
import type { LogRepository } from './log.repository.ts';

/** Small enough that one DELETE holds the table (SQLite's single writer) for milliseconds, not seconds. */
export const purgeBatchSize = 2000;

/**
 * Deletes every log row older than the cutoff in bounded batches, yielding to the event loop between
 * them so relay traffic and log writes interleave, then recounts what it made stale in each hourly
 * table. Answers the number of rows deleted.
 */
export async function purgeLogsBefore(
  repositories: { logs: LogRepository; hourly: readonly RepairableHourlyTable[] },
  cutoff: number,
  now: number,
  options: { batchSize?: number; maxBatches?: number } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? purgeBatchSize;
  let total = 0;
  let lastCreatedAt = 0;
  for (let batch = 0; batch < (options.maxBatches ?? Number.POSITIVE_INFINITY); batch += 1) {
    const result = await repositories.logs.deleteBatchBefore(cutoff, batchSize);
    total += result.deleted;
    lastCreatedAt = Math.max(lastCreatedAt, result.lastCreatedAt);
    if (result.deleted < batchSize) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (total > 0) for (const hourly of repositories.hourly) await repairAfterPurge(hourly, lastCreatedAt, now);
  return total;
}
