/** A worker's report older than this is dropped: it stopped (or exited). Shared by relay/routing/busy-sharing.ts. */
export const busyReportTtlMs = 2_000;

interface WorkerReport {
  readonly at: number;
  readonly counts: Readonly<Record<string, number>>;
}

/**
 * The workers' requests in flight per channel, as each last reported them (least-busy routing on a
 * machine without Redis). A worker that stopped reporting (exited) drops out after two seconds.
 */
export class PrimaryBusyBoard {
  private readonly reports = new Map<number, WorkerReport>();

  /** Keeps the worker's report; answers the other workers' counts added up (channel id → in flight). */
  report(workerId: number, counts: Readonly<Record<string, number>>, now: number): Record<string, number> {
    this.reports.set(workerId, { at: now, counts });
    const others: Record<string, number> = {};
    for (const [id, report] of this.reports) {
      if (now - report.at > busyReportTtlMs) {
        this.reports.delete(id);
        continue;
      }
      if (id === workerId) continue;
      for (const [channelId, count] of Object.entries(report.counts)) others[channelId] = (others[channelId] ?? 0) + count;
    }
    return others;
  }
}
