import autocannon from 'autocannon';
import { CpuWindow, RssSampler } from '../platform/proc-stats.ts';
import type { PickedRequest } from '../realistic/traffic.ts';
import type { Target } from '../targets/target.ts';

export interface ThroughputResult {
  connections: number;
  rate?: number;
  rps: number;
  requests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
  errors: number;
  non2xx: number;
  /** Gateway CPU per completed request, from its own /proc CPU time (absent for direct). */
  cpuMicrosPerRequest?: number;
  /** Share of one core the gateway used over the window. */
  gatewayCores?: number;
  /** Share of one core the fake upstream used: near 1 means the rig, not the gateway, was the limit. */
  upstreamCores: number;
  /** Cores busy with everything else on the machine (load generator included). */
  otherCores: number;
  rssPeakBytes?: number;
}

export interface ThroughputOptions {
  connections: number;
  durationSeconds: number;
  warmupSeconds: number;
  /** Fixed arrival rate (open-ish loop) instead of as fast as possible. */
  overallRate?: number;
  upstreamPid: number;
  /** Per-request token and body (the realistic traffic); `body` and the target's headers otherwise. */
  pick?: () => PickedRequest;
}

/** Closed-loop load with autocannon; CPU is taken from /proc over the measured window only. */
export async function measureThroughput(target: Target, body: string, options: ThroughputOptions): Promise<ThroughputResult> {
  const common = {
    url: `${target.origin}${target.path}`,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...target.headers },
    connections: options.connections,
    timeout: 20,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    ...(options.pick ? { requests: [{ setupRequest: pickedRequest(options.pick) }] } : {}),
  };
  if (options.warmupSeconds > 0) await autocannon({ ...common, duration: options.warmupSeconds });
  const gatewayPid = target.process?.pid;
  const pids = gatewayPid ? [options.upstreamPid, gatewayPid] : [options.upstreamPid];
  const cpu = new CpuWindow(pids);
  const rss = gatewayPid ? new RssSampler(gatewayPid) : undefined;
  rss?.start(250);
  cpu.start();
  const result = await autocannon({ ...common, duration: options.durationSeconds });
  const used = cpu.stop();
  rss?.stop();
  const completed = result['2xx'];
  const seconds = used.wallMicros / 1e6;
  const upstreamMicros = used.perProcess[0] ?? 0;
  const gatewayMicros = used.perProcess[1];
  const measured: ThroughputResult = {
    connections: options.connections,
    rps: completed / result.duration,
    requests: completed,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    upstreamCores: upstreamMicros / used.wallMicros,
    otherCores: (used.machineMicros - upstreamMicros - (gatewayMicros ?? 0)) / used.wallMicros,
  };
  if (options.overallRate) measured.rate = options.overallRate;
  if (gatewayMicros !== undefined) {
    measured.cpuMicrosPerRequest = completed > 0 ? gatewayMicros / completed : Number.NaN;
    measured.gatewayCores = gatewayMicros / 1e6 / seconds;
  }
  if (rss) measured.rssPeakBytes = rss.peak;
  return measured;
}

/** autocannon rebuilds a request whose entry has setupRequest before every send: the pick goes in there. */
function pickedRequest(pick: () => PickedRequest) {
  return (request: { headers?: Record<string, string>; body?: string }) => {
    const picked = pick();
    return { ...request, headers: { ...request.headers, ...picked.headers }, body: picked.body };
  };
}

/** Keep-alive connections of the CPU-per-request phases: issue 41's outside measurement used 32. */
export const throughputConnections = 32;
