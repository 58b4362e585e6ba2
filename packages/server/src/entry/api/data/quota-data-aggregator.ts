import { aggregateLogsAfterCursor, type RollUpPace, trailingLogAggregationJob } from '../../../domain/logs/log-cursor-aggregation.ts';
import type { QuotaDataRepository } from './quota-data.repository.ts';

/** Adds the consume logs after the cursor, up to `upTo`, to `quota_data` (never a log twice). */
export function aggregateQuotaData(repository: QuotaDataRepository, upTo: number, now: number): Promise<number> {
  return aggregateLogsAfterCursor(repository, upTo, now);
}

/** The dashboard's periodic aggregation (every DataExportInterval minutes). */
export function quotaDataJob(repository: QuotaDataRepository, clock: { unixSeconds(): number }, pace?: RollUpPace): () => Promise<number> {
  return trailingLogAggregationJob(repository, clock, pace);
}
