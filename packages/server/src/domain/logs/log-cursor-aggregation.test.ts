import { describe, expect, it } from 'vitest';
import {
  aggregateLogsAfterCursor,
  type BatchPacing,
  type LogCursorAggregation,
  networkRollUpPace,
  ownTurns,
  sqliteRollUpPace,
  takingTurns,
  trailingLogAggregationJob,
} from './log-cursor-aggregation.ts';

/**
 * An aggregation kept in memory that notes, for every batch it adds, the event-loop turn it ran in
 * (`turn()`), and the cursor it moved.
 */
type RecordingAggregation = LogCursorAggregation<never> & { cursor: number; newest: number; batches: Array<{ from: number; to: number; turn: number }> };

function recordingAggregation(turn: () => number): RecordingAggregation {
  const aggregation: RecordingAggregation = {
    cursor: 0,
    newest: 0,
    batches: [] as Array<{ from: number; to: number; turn: number }>,
    watermark: () => Promise.resolve(aggregation.cursor),
    maxLogId: () => Promise.resolve(aggregation.newest),
    rowsOfLogs: () => Promise.resolve([]),
    transaction: <T>(work: (bound: LogCursorAggregation<never>) => Promise<T>) => work(aggregation),
    claim: (from: number, to: number) => {
      if (aggregation.cursor !== from) return Promise.resolve(false);
      aggregation.cursor = to;
      return Promise.resolve(true);
    },
    add: () => Promise.resolve(),
    addLogs: (from: number, to: number) => {
      aggregation.batches.push({ from, to, turn: turn() });
      return Promise.resolve();
    },
  };
  return aggregation;
}

describe('aggregateLogsAfterCursor', () => {
  it('covers the ids in batches and moves the cursor to the end', async () => {
    const aggregation = recordingAggregation(() => 0);
    expect(await aggregateLogsAfterCursor(aggregation, 4_500, 1)).toBe(4_500);
    expect(aggregation.cursor).toBe(4_500);
    expect(aggregation.batches.map(({ from, to }) => [from, to])).toEqual([
      [0, 2_000],
      [2_000, 4_000],
      [4_000, 4_500],
    ]);
  });

  /** The event-loop turn each batch of three jobs started together ran in (a turn: one check phase). */
  async function turnsOfBatches(pacing: BatchPacing): Promise<number[]> {
    let turn = 0;
    let ticking = true;
    // Counts the turns: a check-phase callback that schedules itself for the next turn each time.
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const jobs = [recordingAggregation(() => turn), recordingAggregation(() => turn), recordingAggregation(() => turn)];
    await Promise.all(jobs.map((job) => aggregateLogsAfterCursor(job, 6_000, 1, pacing)));
    ticking = false;
    return jobs.flatMap((job) => job.batches.map((batch) => batch.turn));
  }

  it('on SQLite (takingTurns) runs one batch per event-loop turn across jobs that start together', async () => {
    const turns = await turnsOfBatches(takingTurns);
    expect(turns).toHaveLength(9);
    expect(new Set(turns).size).toBe(9);
  });

  it('elsewhere (ownTurns) runs the jobs side by side, each batch in a turn after its last', async () => {
    const turns = await turnsOfBatches(ownTurns);
    expect(turns).toHaveLength(9);
    // Three jobs, three batches each: one of every job in each of three turns.
    expect(new Set(turns).size).toBe(3);
  });

  it('stops when another instance moved the cursor first', async () => {
    const aggregation = recordingAggregation(() => 0);
    aggregation.claim = () => Promise.resolve(false);
    expect(await aggregateLogsAfterCursor(aggregation, 4_000, 1)).toBe(0);
    expect(aggregation.batches).toEqual([]);
  });
});

describe('trailingLogAggregationJob', () => {
  it('goes up to the newest log at once where ids commit in their order (SQLite)', async () => {
    const aggregation = recordingAggregation(() => 0);
    const run = trailingLogAggregationJob(aggregation, { unixSeconds: () => 1 }, sqliteRollUpPace);
    aggregation.newest = 300;
    expect(await run()).toBe(300);
    aggregation.newest = 500;
    expect(await run()).toBe(200);
    expect(aggregation.cursor).toBe(500);
  });

  it('elsewhere trails the newest log by one run, so a commit out of id order has a run to land', async () => {
    const aggregation = recordingAggregation(() => 0);
    const run = trailingLogAggregationJob(aggregation, { unixSeconds: () => 1 }, networkRollUpPace);
    aggregation.newest = 300;
    expect(await run()).toBe(0);
    aggregation.newest = 500;
    expect(await run()).toBe(300);
    expect(aggregation.cursor).toBe(300);
    expect(await run()).toBe(200);
  });
});
