import { setTimeout as sleep } from 'node:timers/promises';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { round, slope } from '../measure/stats.ts';
import { RssSampler, rssBytes } from '../platform/proc-stats.ts';
import { chatBody, type Target } from '../targets/target.ts';
import { steadyStreams, type StreamStats } from './stream-client.ts';
import { measureThroughput, type ThroughputResult } from './throughput.ts';

export interface SoakResult {
  seconds: number;
  rate: number;
  streams: number;
  load: ThroughputResult;
  streamStats: StreamStats;
  rssStartMb: number;
  rssEndMb: number;
  rssMaxMb: number;
  /** Growth over the second half of the soak (after warm-up), MiB per minute. */
  growthMbPerMinute: number;
  /** RSS five seconds after the load stopped. */
  rssRecoveredMb: number;
}

const mb = (bytes: number) => bytes / 1024 / 1024;

/** Mixed steady load (non-stream at a fixed rate plus concurrent paced streams) while RSS is sampled. */
export async function soak(target: Target, seconds: number, rate: number, streams: number, upstreamPid: number): Promise<SoakResult> {
  const pid = target.process?.pid;
  if (!pid) throw new Error('soak needs a gateway process');
  const sampler = new RssSampler(pid);
  sampler.start(1000);
  const [load, streamStats] = await Promise.all([
    measureThroughput(target, chatBody(benchModels.instant, false), {
      connections: 32,
      durationSeconds: seconds,
      warmupSeconds: 0,
      overallRate: rate,
      upstreamPid,
    }),
    steadyStreams(target, chatBody(benchModels.paced, true), streams, seconds * 1000),
  ]);
  sampler.stop();
  await sleep(5000);
  const samples = sampler.samples;
  const secondHalf = samples.filter((sample) => sample.atMs >= (seconds * 1000) / 2);
  return {
    seconds,
    rate,
    streams,
    load,
    streamStats,
    rssStartMb: round(mb(samples[Math.min(samples.length - 1, Math.ceil(samples.length / 10))]?.bytes ?? 0), 1),
    rssEndMb: round(mb(samples[samples.length - 1]?.bytes ?? 0), 1),
    rssMaxMb: round(mb(sampler.peak), 1),
    growthMbPerMinute: round(slope(secondHalf.map((sample) => ({ x: sample.atMs / 60_000, y: mb(sample.bytes) }))), 2),
    rssRecoveredMb: round(mb(rssBytes(pid)), 1),
  };
}
