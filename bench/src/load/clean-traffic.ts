import { Pool } from 'undici';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { chatBody, type Target } from '../targets/target.ts';
import { timedRequest } from './timed-request.ts';

export interface CleanTraffic {
  requests: number;
  /** Requests that did not complete normally (none expected: the reconciliation then cannot be exact). */
  failed: number;
}

/**
 * Traffic for the exact reconciliation: non-stream answers, instant and paced streams, every one read
 * to its end by the caller (no load generator cutting requests at the end of a timed run), so the
 * quota charged must equal the usage the fake emitted to the unit. Tagged with the `user` field so the
 * fake tallies it apart from the rest of the run.
 */
export async function sendCleanTraffic(
  target: Target,
  caller: string,
  counts = { nonStream: 2000, instantStreams: 300, pacedStreams: 100 },
): Promise<CleanTraffic> {
  const pool = new Pool(target.origin, { connections: Math.max(20, counts.pacedStreams), connect: { timeout: 30_000 } });
  let failed = 0;
  let requests = 0;
  const run = async (body: string, count: number, concurrency: number) => {
    let left = count;
    const worker = async () => {
      while (left > 0) {
        left -= 1;
        requests += 1;
        const timing = await timedRequest(pool, target, body, { timeoutMs: 60_000 });
        if (timing.error || timing.status !== 200) failed += 1;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  };
  try {
    await run(chatBody(benchModels.instant, false, caller), counts.nonStream, 20);
    await run(chatBody(benchModels.instant, true, caller), counts.instantStreams, 20);
    await run(chatBody(benchModels.paced, true, caller), counts.pacedStreams, counts.pacedStreams);
  } finally {
    await pool.destroy();
  }
  return { requests, failed };
}
