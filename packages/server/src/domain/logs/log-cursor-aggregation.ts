/**
 * Log ids per batch. On SQLite each batch's GROUP BY runs synchronously on the event loop (about 1 to
 * 2 µs a log), so a batch must stay within the 5 ms stall budget: 50,000 held the loop for 50–85 ms
 * every minute under load. The yield between batches lets requests through.
 */
const logsPerBatch = 2_000;

/** How a job's batches are paced: `ownTurns` or `takingTurns`. */
export type BatchPacing = <T>(batch: () => Promise<T>) => Promise<T>;

/**
 * Each batch in an event-loop turn of its own, the jobs' batches side by side: for engines whose
 * statements wait on the network and never hold the event loop (PostgreSQL, MySQL), where running the
 * jobs one batch at a time would only make them slower.
 */
export const ownTurns: BatchPacing = (batch) => new Promise<void>((resolve) => setImmediate(resolve)).then(batch);

let lastBatch: Promise<unknown> = Promise.resolve();

/**
 * Each batch after every batch queued before it, by any job, and in an event-loop turn of its own: for
 * SQLite, where a batch runs its statements synchronously once it has the connection. The roll-up
 * jobs (four of them, and the dashboard's hourly usage) start together; pacing each on its own put a
 * batch of every job in the same turn, and catching up on a minute of logs under load held the loop
 * for 96 ms at a time (`npm run bench:sustained --stalls`), against one batch's few milliseconds.
 */
export const takingTurns: BatchPacing = <T>(batch: () => Promise<T>): Promise<T> => {
  const run = lastBatch.then(() => ownTurns(batch));
  lastBatch = run.catch(() => undefined);
  return run;
};

/**
 * A table of sums built from the logs, and the cursor (a `switchboard_job_state` row) that says
 * which log ids it already counts. The cursor lives in the same database as the sums, so moving it
 * and adding the sums is one transaction.
 */
export interface LogCursorAggregation<Row> {
  watermark(): Promise<number>;
  maxLogId(): Promise<number>;
  /** The sums of the logs with ids in (afterId, upToId]. */
  rowsOfLogs(afterId: number, upToId: number): Promise<Row[]>;
  /** Runs `work` in one transaction, given the aggregation bound to it. */
  transaction<T>(work: (aggregation: LogCursorAggregation<Row>) => Promise<T>): Promise<T>;
  /** Moves the cursor from `from` to `to` only if it still reads `from` (a compare-and-set). */
  claim(from: number, to: number, now: number): Promise<boolean>;
  add(row: Row): Promise<void>;
  /**
   * When the sums can be made by the engine itself: adds the logs in (afterId, upToId] in one statement
   * (instead of `rowsOfLogs` and an `add` per row).
   */
  addLogs?(afterId: number, upToId: number): Promise<void>;
}

/**
 * Adds the logs in (cursor, upTo] to the sums, batch by batch. The cursor moves with a compare-and-set
 * in the transaction that adds the sums, so concurrent runs (two instances) never count a log twice.
 * Returns how many log ids were covered.
 */
export async function aggregateLogsAfterCursor<Row>(
  aggregation: LogCursorAggregation<Row>,
  upTo: number,
  now: number,
  pacing: BatchPacing = ownTurns,
): Promise<number> {
  let covered = 0;
  for (let from = await aggregation.watermark(); from < upTo;) {
    const to = Math.min(upTo, from + logsPerBatch);
    // A long backlog (a first run on a large imported table, or a minute of logs at full load) must not
    // hold the event loop for more than a batch at a time.
    const won = await pacing(async () => {
      const rows = aggregation.addLogs ? [] : await aggregation.rowsOfLogs(from, to);
      return aggregation.transaction(async (bound) => {
        if (!(await bound.claim(from, to, now))) return false;
        if (bound.addLogs) await bound.addLogs(from, to);
        else for (const row of rows) await bound.add(row);
        return true;
      });
    });
    if (!won) break;
    covered += to - from;
    from = to;
  }
  return covered;
}

/**
 * How the roll-up jobs run on an engine: their batches' pacing, and whether a run may go up to the
 * newest log id at once.
 */
export interface RollUpPace {
  readonly pacing: BatchPacing;
  /**
   * Whether a log id is readable only once every lower one is (SQLite: one writer at a time takes the
   * next id and commits before the next writer starts). Elsewhere an id is taken before its batch
   * commits, so a lower id can land after a higher one has been read.
   */
  readonly idsCommitInOrder: boolean;
}

/** SQLite: batches take turns on the event loop, and ids commit in their order. */
export const sqliteRollUpPace: RollUpPace = { pacing: takingTurns, idsCommitInOrder: true };
/** PostgreSQL and MySQL: batches side by side, and a run of delay for commits that land out of id order. */
export const networkRollUpPace: RollUpPace = { pacing: ownTurns, idsCommitInOrder: false };

/**
 * The periodic job. Where ids commit in their order each run aggregates up to the newest log; elsewhere
 * up to the highest id the previous run saw, so a batch that took its ids before a higher one
 * committed has had a run's time to land.
 */
export function trailingLogAggregationJob<Row>(
  aggregation: LogCursorAggregation<Row>,
  clock: { unixSeconds(): number },
  pace: RollUpPace = networkRollUpPace,
): () => Promise<number> {
  let seen: number | undefined;
  return async () => {
    const newest = await aggregation.maxLogId();
    const upTo = pace.idsCommitInOrder ? newest : seen;
    seen = newest;
    return upTo === undefined ? 0 : aggregateLogsAfterCursor(aggregation, upTo, clock.unixSeconds(), pace.pacing);
  };
}
