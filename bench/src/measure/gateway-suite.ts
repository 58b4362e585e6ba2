import { setTimeout as sleep } from 'node:timers/promises';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { measureAddedLatency, type AddedLatency } from '../load/latency-probe.ts';
import { probeStalls, type StallProbe } from '../load/stall-probe.ts';
import { steadyStreams, streamWave, type StreamStats, type WaveStats } from '../load/stream-client.ts';
import { measureThroughput, throughputConnections, type ThroughputResult } from '../load/throughput.ts';
import { waitForQuiet } from '../platform/quiet.ts';
import { treePrivateBytes, treeRssBytes } from '../platform/proc-stats.ts';
import type { PhaseDurations } from '../run-options.ts';
import { chatBody, type Target } from '../targets/target.ts';

export interface GatewayMeasurements {
  idleRssBytes?: number;
  /** The idle process tree's RSS without file-backed pages (the Node binary every Node process shares). */
  idlePrivateBytes?: number;
  /** RSS 15 s after the last stream wave: memory a burst took should come back (the 232 → 302 MB that stayed). */
  afterStreamsRssBytes?: number;
  /** Other tenants' load (cores) seen just before the phases started. */
  otherTenantCores: number;
  waves: WaveStats[];
  /** Largest wave with every frame of every stream delivered. */
  maxStreamsHeld: number;
  latency?: AddedLatency;
  firstChunk?: AddedLatency;
  paced?: { direct: StreamStats; target: StreamStats };
  throughput?: ThroughputResult;
  streamThroughput?: ThroughputResult;
  slowUpstream?: ThroughputResult;
  stall?: StallProbe;
}

export interface SuiteContext {
  direct: Target;
  upstreamPid: number;
  durations: PhaseDurations;
  /** Phases to run; the database-off variant only needs throughput. */
  phases: ReadonlySet<'memory' | 'latency' | 'paced' | 'throughput' | 'slow' | 'stall'>;
  progress: (message: string) => void;
}

const instant = chatBody(benchModels.instant, false);
const instantStream = chatBody(benchModels.instant, true);
const pacedStream = chatBody(benchModels.paced, true);
const slow = chatBody(benchModels.slow, false);

/**
 * Every figure of the issue for one target, phase by phase. Memory comes first, from a cold process,
 * so the stream waves size per-stream memory without the heap a throughput run leaves behind.
 */
export async function measureGateway(target: Target, context: SuiteContext): Promise<GatewayMeasurements> {
  const { durations, phases, progress } = context;
  const pid = target.process?.pid;
  const own = [context.upstreamPid, ...(pid ? [pid] : [])];
  const result: GatewayMeasurements = { otherTenantCores: await waitForQuiet(own, durations.quietWaitMs), waves: [], maxStreamsHeld: 0 };
  if (pid) {
    await sleep(1000);
    // The whole process tree: with WORKERS > 1 the primary alone would hide its workers' memory.
    result.idleRssBytes = treeRssBytes(pid);
    result.idlePrivateBytes = treePrivateBytes(pid);
  }
  if (phases.has('memory')) {
    progress('paced stream waves (streams held, memory per stream)');
    await steadyStreams(target, pacedStream, 10, 1500);
    for (const level of durations.streamLevels) {
      const wave = await streamWave(target, pacedStream, level, Math.min(2000, level));
      result.waves.push(wave);
      progress(`  ${level} streams: ${wave.incomplete} incomplete, ${wave.lostFrames} frames lost`);
      if (wave.incomplete > 0 || wave.lostFrames > 0) break;
      result.maxStreamsHeld = level;
      await sleep(500);
    }
    if (pid) {
      // What a burst leaves behind once it is over.
      await sleep(15_000);
      result.afterStreamsRssBytes = treeRssBytes(pid);
    }
  }
  if (phases.has('latency')) {
    await waitForQuiet(own, durations.quietWaitMs);
    progress('added latency at c=1 (interleaved with direct)');
    result.latency = await measureAddedLatency(context.direct, target, instant, durations.latencyRounds, durations.latencyRoundMs);
    result.firstChunk = await measureAddedLatency(context.direct, target, instantStream, durations.latencyRounds, durations.latencyRoundMs);
  }
  if (phases.has('paced')) {
    progress('paced streams at c=10: time to first chunk and gaps');
    const direct = await steadyStreams(context.direct, pacedStream, 10, durations.pacedSeconds * 1000);
    result.paced = { direct, target: await steadyStreams(target, pacedStream, 10, durations.pacedSeconds * 1000) };
  }
  if (phases.has('throughput')) {
    await waitForQuiet(own, durations.quietWaitMs);
    progress(`throughput, non-stream, c=${throughputConnections}`);
    result.throughput = await measureThroughput(target, target.body ?? instant, {
      connections: throughputConnections,
      durationSeconds: durations.throughputSeconds,
      warmupSeconds: durations.warmupSeconds,
      upstreamPid: context.upstreamPid,
    });
    progress(`  ${Math.round(result.throughput.rps)} req/s, ${result.throughput.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/req`);
  }
  if (phases.has('throughput') && phases.has('paced')) {
    progress(`throughput, instant streams, c=${throughputConnections}`);
    result.streamThroughput = await measureThroughput(target, instantStream, {
      connections: throughputConnections,
      durationSeconds: Math.max(2, durations.throughputSeconds / 2),
      warmupSeconds: 1,
      upstreamPid: context.upstreamPid,
    });
  }
  if (phases.has('slow')) {
    progress('50 ms upstream, c=256');
    result.slowUpstream = await measureThroughput(target, slow, {
      connections: 256,
      durationSeconds: Math.max(2, durations.throughputSeconds / 2),
      warmupSeconds: 1,
      upstreamPid: context.upstreamPid,
    });
  }
  if (phases.has('stall') && result.throughput) {
    await waitForQuiet(own, durations.quietWaitMs);
    const rate = Math.max(200, Math.round((result.throughput.rps * 0.6) / 100) * 100);
    progress(`event-loop stalls: ${rate} req/s plus 16 paced probe streams`);
    result.stall = await probeStalls(target, rate, durations.stallSeconds, context.upstreamPid);
  }
  return result;
}
