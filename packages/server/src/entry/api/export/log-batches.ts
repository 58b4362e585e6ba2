import type { LogFilters } from '../log/log-filters.ts';
import type { LogPageLocator } from '../log/log-page-locator.ts';
import type { LogRepository, LogRow } from '../log/log.repository.ts';
import { keysetBatches } from './keyset-batches.ts';

/**
 * Every log of the filters in the log page's order (newest first, then by id), in keyset batches. A
 * model, channel or group filter (no index of its own since migration 0032) is read only within the
 * time ranges the hourly roll-ups say hold such logs, each range a stretch of the `(created_at, id)`
 * index; other filters read their own index in one walk.
 */
export async function* logBatches(
  filters: LogFilters,
  ranges: Pick<LogPageLocator, 'ranges'>,
  logs: Pick<LogRepository, 'batchAfter'>,
  batchSize: number,
): AsyncGenerator<LogRow[]> {
  for await (const within of ranges.ranges(filters)) {
    yield* keysetBatches(
      (after: { createdAt: number; id: number } | undefined, limit) => logs.batchAfter(within, after, limit),
      (row) => ({ createdAt: Number(row.created_at), id: row.id }),
      batchSize,
    );
  }
}
