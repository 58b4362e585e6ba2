import type { LogHourlyRepository } from './log-hourly.repository.ts';

const logsPerBatch = 50_000;

/**
 * Adds the logs in (cursor, upTo] to the hourly totals, batch by batch. The cursor moves with a
 * compare-and-set in the transaction that adds the totals, so concurrent runs never count a log twice.
 */
export async function rollUpLogs(repository: LogHourlyRepository, upTo: number, now: number): Promise<number> {
  let covered = 0;
  for (let from = await repository.watermark(); from < upTo; ) {
    const to = Math.min(upTo, from + logsPerBatch);
    const totals = await repository.totalsOfLogs(from, to);
    const won = await repository.transaction(async (trx) => {
      if (!(await repository.claim(trx, from, to, now))) return false;
      for (const row of totals) await repository.add(trx, row);
      return true;
    });
    if (!won) break;
    covered += to - from;
    from = to;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return covered;
}

/**
 * The periodic job: each run rolls up to the highest log id the previous run saw. An id is taken
 * before its batch commits, so a lower id can land after a higher one; one run of delay lets it.
 */
export function logHourlyJob(repository: LogHourlyRepository, clock: { unixSeconds(): number }): () => Promise<number> {
  let seen: number | undefined;
  return async () => {
    const upTo = seen;
    seen = await repository.maxLogId();
    return upTo === undefined ? 0 : rollUpLogs(repository, upTo, clock.unixSeconds());
  };
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
