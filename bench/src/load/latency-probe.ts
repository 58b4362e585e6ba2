import { Client } from 'undici';
import { spread, type Spread } from '../measure/stats.ts';
import type { PickedRequest } from '../realistic/traffic.ts';
import type { Target } from '../targets/target.ts';
import { timedRequest } from './timed-request.ts';

export interface SerialLatency {
  /** Whole answer (non-stream) or time to first frame (stream), ms. */
  first: Spread;
  total: Spread;
  errors: number;
}

export interface AddedLatency {
  direct: SerialLatency;
  target: SerialLatency;
}

/** A fixed body, or a pick per request (the realistic traffic: its own token and model each time). */
export type RequestSource = string | (() => PickedRequest);

async function serialRun(client: Client, target: Target, source: RequestSource, durationMs: number, firsts: number[], totals: number[]): Promise<number> {
  let errors = 0;
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    const picked = typeof source === 'string' ? undefined : source();
    const sent = picked ? { ...target, headers: { ...target.headers, ...picked.headers } } : target;
    const timing = await timedRequest(client, sent, picked ? picked.body : (source as string), { timeoutMs: 10_000 });
    if (timing.error || timing.status !== 200) {
      errors += 1;
      continue;
    }
    firsts.push(timing.firstMs);
    totals.push(timing.totalMs);
  }
  return errors;
}

/**
 * Client-observed overhead at concurrency 1: requests one after another on one kept-alive connection,
 * alternating short rounds against the fake upstream and against the gateway so both see the same
 * machine state (the cuihuan method); the added latency is the gateway's percentile minus direct's.
 */
export async function measureAddedLatency(direct: Target, target: Target, body: RequestSource, rounds: number, roundMs: number): Promise<AddedLatency> {
  const directClient = new Client(direct.origin, { pipelining: 1 });
  const targetClient = new Client(target.origin, { pipelining: 1 });
  const sides = [
    { client: directClient, target: direct, firsts: [] as number[], totals: [] as number[], errors: 0 },
    { client: targetClient, target, firsts: [] as number[], totals: [] as number[], errors: 0 },
  ];
  try {
    for (const side of sides) await serialRun(side.client, side.target, body, Math.min(500, roundMs), [], []);
    for (let round = 0; round < rounds; round += 1) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        side.errors += await serialRun(side.client, side.target, body, roundMs, side.firsts, side.totals);
      }
    }
  } finally {
    await Promise.all([directClient.close(), targetClient.close()]);
  }
  const [directSide, targetSide] = sides as [(typeof sides)[0], (typeof sides)[0]];
  return {
    direct: { first: spread(directSide.firsts), total: spread(directSide.totals), errors: directSide.errors },
    target: { first: spread(targetSide.firsts), total: spread(targetSide.totals), errors: targetSide.errors },
  };
}
