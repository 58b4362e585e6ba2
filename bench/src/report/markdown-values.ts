import type { AddedLatency } from '../load/latency-probe.ts';

/** Gateway percentile minus direct percentile, in ms (the client-observed overhead). */
export function added(latency: AddedLatency | undefined, part: 'first' | 'total', p: 'p50' | 'p99'): number | undefined {
  if (!latency || latency.target[part].count === 0) return undefined;
  return latency.target[part][p] - latency.direct[part][p];
}
