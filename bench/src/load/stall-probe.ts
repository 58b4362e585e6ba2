import { fakeTiming } from '../fake-upstream/behaviours.ts';
import { chatBody, type Target } from '../targets/target.ts';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { steadyStreams, type StreamStats } from './stream-client.ts';
import { measureThroughput, type ThroughputResult } from './throughput.ts';

export interface StallProbe {
  load: ThroughputResult;
  probes: StreamStats;
  /** Longest gap between two frames of the probe streams beyond the upstream's own pacing, ms. */
  maxStallMs: number;
  p99StallMs: number;
  /** The longest event-loop delay the gateway measured in itself over the phase, ms (when it reports one). */
  inProcessMaxStallMs?: number;
}

/**
 * Event-loop stalls seen from outside: while non-stream load at a fixed rate keeps log and quota
 * flushes busy, a few paced streams measure every gap between frames; anything beyond the upstream's
 * 20 ms pacing is time the gateway (or the rig, see the floor's row) held frames back. A gateway that
 * measures its own event-loop delay (Switchboard's /metrics) also reports that, free of the rig's jitter.
 */
export async function probeStalls(target: Target, rate: number, seconds: number, upstreamPid: number): Promise<StallProbe> {
  await target.eventLoopMaxDelayMs?.(); // starts the gateway's own window
  const [load, probes] = await Promise.all([
    measureThroughput(target, chatBody(benchModels.instant, false), {
      connections: 32,
      durationSeconds: seconds,
      warmupSeconds: 0,
      overallRate: rate,
      upstreamPid,
    }),
    steadyStreams(target, chatBody(benchModels.paced, true), 16, seconds * 1000),
  ]);
  const inProcessMaxStallMs = await target.eventLoopMaxDelayMs?.();
  return {
    ...(inProcessMaxStallMs === undefined ? {} : { inProcessMaxStallMs }),
    load,
    probes,
    maxStallMs: Math.max(0, probes.gap.max - fakeTiming.pacedIntervalMs),
    p99StallMs: Math.max(0, probes.gap.p99 - fakeTiming.pacedIntervalMs),
  };
}
