import { setTimeout as sleep } from 'node:timers/promises';
import { processTree, pssBytes, rssBytes } from '../platform/proc-stats.ts';

/** One look at the tree after a burst: each process's RSS and PSS, and their sums. */
export interface RecoverySample {
  /** Since the burst ended. */
  atMs: number;
  treeRssBytes: number;
  treePssBytes: number;
  /** By pid; the root of the tree is the WORKERS primary. */
  perProcess: Record<number, { rssBytes: number; pssBytes: number }>;
}

/**
 * Reads every process of the tree once every `everyMs` for `forMs` after a burst, whatever it does
 * meanwhile: a tree that comes back early is still watched, so memory that returns and then grows
 * again (a cache filling, a late collection) shows in the samples.
 */
export async function sampleRecovery(pid: number, forMs: number, everyMs: number): Promise<RecoverySample[]> {
  const samples: RecoverySample[] = [];
  const ended = Date.now();
  for (let next = ended; ; next += everyMs) {
    // A timer may fire a millisecond early by the wall clock: a sample before its slot would be one
    // too many (the window's last slot read as 119 ms of 120 asked for another).
    for (let wait = next - Date.now(); wait > 0; wait = next - Date.now()) await sleep(wait);
    const atMs = Date.now() - ended;
    samples.push(sampleTree(pid, atMs));
    // The last sample is taken at the end of the window or after it, however long a read takes.
    if (atMs >= forMs) return samples;
  }
}

function sampleTree(pid: number, atMs: number): RecoverySample {
  const sample: RecoverySample = { atMs, treeRssBytes: 0, treePssBytes: 0, perProcess: {} };
  for (const member of processTree(pid)) {
    try {
      const figures = { rssBytes: rssBytes(member), pssBytes: pssBytes(member) };
      sample.perProcess[member] = figures;
      sample.treeRssBytes += figures.rssBytes;
      sample.treePssBytes += figures.pssBytes;
    } catch {
      // ended between the listing and the read
    }
  }
  return sample;
}

/**
 * When the tree came back within `toleranceBytes` of `levelBytes` for good: the time of the first
 * sample from which every later one stays within it. Undefined when the last sample is still above
 * (a tree that dips under the bound and grows past it again has not come back).
 */
export function backWithinMs(
  samples: readonly RecoverySample[],
  figure: 'treeRssBytes' | 'treePssBytes',
  levelBytes: number,
  toleranceBytes: number,
): number | undefined {
  let since: number | undefined;
  for (const sample of samples) {
    if (sample[figure] - levelBytes <= toleranceBytes) since ??= sample.atMs;
    else since = undefined;
  }
  return since;
}
