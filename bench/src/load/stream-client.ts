import { Pool } from 'undici';
import { fakeTiming } from '../fake-upstream/behaviours.ts';
import { spread, type Spread } from '../measure/stats.ts';
import { RssSampler, rssBytes } from '../platform/proc-stats.ts';
import type { Target } from '../targets/target.ts';
import { timedRequest, type Timing } from './timed-request.ts';

/** Frames a complete paced stream carries: every chunk plus `data: [DONE]`. */
export const framesPerStream = fakeTiming.streamChunks + 1;

export interface StreamStats {
  concurrency: number;
  streams: number;
  /** Streams that ended early, failed, timed out or answered non-200. */
  incomplete: number;
  /** Frames missing against what the fake upstream sent. */
  lostFrames: number;
  ttft: Spread;
  gap: Spread;
  whole: Spread;
  firstError?: string;
}

function summarise(concurrency: number, timings: Timing[], gaps: number[]): StreamStats {
  let incomplete = 0;
  let lostFrames = 0;
  let firstError: string | undefined;
  for (const timing of timings) {
    const missing = Math.max(0, framesPerStream - timing.frames);
    lostFrames += missing;
    if (timing.error || timing.status !== 200 || !timing.done || missing > 0) {
      incomplete += 1;
      firstError ??= timing.error ?? (timing.status !== 200 ? `HTTP ${timing.status}` : `${timing.frames}/${framesPerStream} frames`);
    }
  }
  const ok = timings.filter((timing) => timing.status === 200 && timing.firstMs >= 0);
  const stats: StreamStats = {
    concurrency,
    streams: timings.length,
    incomplete,
    lostFrames,
    ttft: spread(ok.map((timing) => timing.firstMs)),
    gap: spread(gaps),
    whole: spread(ok.map((timing) => timing.totalMs)),
  };
  if (firstError) stats.firstError = firstError;
  return stats;
}

const streamTimeoutMs = fakeTiming.streamChunks * fakeTiming.pacedIntervalMs * 10;

/** `concurrency` clients, each opening one paced stream after another until the time is up. */
export async function steadyStreams(target: Target, body: string, concurrency: number, durationMs: number): Promise<StreamStats> {
  const pool = new Pool(target.origin, { connections: concurrency });
  const timings: Timing[] = [];
  const gaps: number[] = [];
  const end = performance.now() + durationMs;
  const loop = async () => {
    while (performance.now() < end) timings.push(await timedRequest(pool, target, body, { onGap: (gap) => gaps.push(gap), timeoutMs: streamTimeoutMs }));
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, loop));
  } finally {
    await pool.destroy();
  }
  return summarise(concurrency, timings, gaps);
}

export interface WaveStats extends StreamStats {
  rssBeforeBytes?: number;
  rssPeakBytes?: number;
  /** (peak − before) / concurrency. */
  bytesPerStream?: number;
}

/**
 * One wave: `concurrency` paced streams opened over `rampMs` and all held open together (each lasts
 * about chunks × interval), while the gateway's RSS is sampled to size memory per concurrent stream.
 * `timeoutMs` bounds each whole stream (ten times its paced length by default); a bench that measures
 * memory, not latency, gives more, so a machine other tenants keep busy delays its streams without
 * losing them.
 */
export async function streamWave(target: Target, body: string, concurrency: number, rampMs: number, timeoutMs = streamTimeoutMs): Promise<WaveStats> {
  // Opening thousands of connections at once can overflow a busy gateway's accept queue; a SYN retry
  // then costs seconds, which shows in the time to first chunk rather than as a lost stream.
  const pool = new Pool(target.origin, { connections: concurrency, connect: { timeout: 30_000 } });
  const gatewayPid = target.process?.pid;
  const rssBefore = gatewayPid ? rssBytes(gatewayPid) : undefined;
  const sampler = gatewayPid ? new RssSampler(gatewayPid) : undefined;
  sampler?.start(100);
  const gaps: number[] = [];
  const timings: Timing[] = [];
  try {
    const started: Array<Promise<void>> = [];
    for (let index = 0; index < concurrency; index += 1) {
      const delay = (rampMs * index) / concurrency;
      started.push(
        new Promise<void>((resolve) => setTimeout(resolve, delay)).then(async () => {
          timings.push(await timedRequest(pool, target, body, { onGap: (gap) => gaps.push(gap), timeoutMs }));
        }),
      );
    }
    await Promise.all(started);
  } finally {
    sampler?.stop();
    await pool.destroy();
  }
  const stats: WaveStats = summarise(concurrency, timings, gaps);
  if (sampler && rssBefore !== undefined) {
    stats.rssBeforeBytes = rssBefore;
    stats.rssPeakBytes = sampler.peak;
    stats.bytesPerStream = (sampler.peak - rssBefore) / concurrency;
  }
  return stats;
}
