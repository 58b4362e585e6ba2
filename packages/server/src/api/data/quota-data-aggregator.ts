import type { QuotaDataRepository } from './quota-data.repository.ts';

const logsPerBatch = 50_000;

/**
 * Adds the consume logs in (cursor, upTo] to `quota_data`, batch by batch. The cursor moves with a
 * compare-and-set inside the transaction that adds the sums, so two instances never count a log twice.
 */
export async function aggregateQuotaData(repository: QuotaDataRepository, upTo: number, now: number): Promise<number> {
  let covered = 0;
  for (let from = await repository.watermark(); from < upTo; ) {
    const to = Math.min(upTo, from + logsPerBatch);
    const buckets = await repository.bucketsOfLogs(from, to);
    const won = await repository.transaction(async (trx) => {
      if (!(await repository.claim(trx, from, to, now))) return false;
      for (const bucket of buckets) await repository.add(trx, bucket);
      return true;
    });
    if (!won) break;
    covered += to - from;
    from = to;
    // A long backlog (first run on an imported database) must not hold the event loop.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return covered;
}

/**
 * The periodic job: each run aggregates up to the highest log id the previous run saw. Log ids are
 * taken before their batch commits, so a lower id can land after a higher one; one run of delay lets it.
 */
export function quotaDataJob(repository: QuotaDataRepository, clock: { unixSeconds(): number }): () => Promise<number> {
  let seen: number | undefined;
  return async () => {
    const upTo = seen;
    seen = await repository.maxLogId();
    return upTo === undefined ? 0 : aggregateQuotaData(repository, upTo, clock.unixSeconds());
  };
}
