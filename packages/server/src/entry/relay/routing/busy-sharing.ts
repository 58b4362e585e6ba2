import { busyReportTtlMs } from '../../../domain/cluster/primary-busy.ts';
import type { PrimaryLink } from '../../../domain/cluster/primary-link.ts';
import type { Redis } from '../../../core/platform/redis.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import { addUpReports, type BusyCounts } from './busy-counts.ts';

/** How often each process tells the others its in-flight counts and hears theirs. */
export const busyShareIntervalMs = 200;

/** One exchange: send this process's counts, receive the others' added up. */
export type BusyExchange = (counts: Record<string, number>, now: number) => Promise<Map<number, number>>;

/**
 * Shares in-flight counts for the least-busy strategy every ~200 ms instead of a round trip per
 * request: a process sees the others' counts as they were up to one interval ago, its own exactly.
 * Returns the function that stops it.
 */
export function shareBusyCounts(busy: BusyCounts, exchange: BusyExchange, now: () => number = Date.now): () => void {
  let running = false;
  const timer = setInterval(() => {
    // A slow answer is not queued behind: the next tick after it sends the counts of then.
    if (running) return;
    running = true;
    exchange(busy.snapshot(), now())
      .then((others) => busy.setOthers(others))
      // The others' counts stay as last heard; this process's own are always exact.
      .catch(() => undefined)
      .finally(() => {
        running = false;
      });
  }, busyShareIntervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Between instances: one hash per deployment, a field per process with its counts and the time it
 * wrote them; one pipelined round trip per interval (write own, read all).
 */
export function redisBusyExchange(redis: Redis, namespace: string, member: string): BusyExchange {
  const key = `switchboard:busy:${namespace}`;
  return async (counts, now) => {
    const results = (await redis
      .multi()
      .hset(key, member, JSON.stringify({ at: now, counts }))
      .pexpire(key, busyReportTtlMs * 5)
      .hgetall(key)
      .exec()) as Array<[Error | null, unknown]>;
    const all = (results[results.length - 1]?.[1] ?? {}) as Record<string, string>;
    const reports: Array<Record<string, number>> = [];
    const stale: string[] = [];
    for (const [field, text] of Object.entries(all)) {
      if (field === member) continue;
      const parsed = safeParseJson(text);
      const report = parsed.ok ? (parsed.value as { at?: unknown; counts?: unknown }) : undefined;
      if (!report || typeof report.at !== 'number' || typeof report.counts !== 'object' || report.counts === null || now - report.at > busyReportTtlMs)
        stale.push(field);
      else reports.push(report.counts as Record<string, number>);
    }
    if (stale.length > 0) void redis.hdel(key, ...stale).catch(() => undefined);
    return addUpReports(reports);
  };
}

/** Between the workers of one machine without Redis: the primary keeps every worker's last report. */
export function primaryBusyExchange(link: PrimaryLink): BusyExchange {
  return async (counts, now) => {
    const answer = (await link.request((id) => ({ sb: 'busy', id, counts, now }), 1_000)) as Record<string, number>;
    return addUpReports([answer]);
  };
}
