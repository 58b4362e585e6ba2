/**
 * Requests in flight per channel for the least-busy strategy: this process's own counts, exact,
 * plus the other processes' (workers of this machine, other instances), as they last reported
 * them (busy-sharing.ts publishes every ~200 ms, so theirs are a cheap approximation).
 */
export class BusyCounts {
  private readonly local = new Map<number, number>();
  private others = new Map<number, number>();

  started(channelId: number): void {
    this.local.set(channelId, (this.local.get(channelId) ?? 0) + 1);
  }

  ended(channelId: number): void {
    const count = (this.local.get(channelId) ?? 0) - 1;
    if (count > 0) this.local.set(channelId, count);
    else this.local.delete(channelId);
  }

  /** In flight on the channel across every process that reports. */
  of(channelId: number): number {
    return (this.local.get(channelId) ?? 0) + (this.others.get(channelId) ?? 0);
  }

  /** This process's own count (the part it reports to the others). */
  localOf(channelId: number): number {
    return this.local.get(channelId) ?? 0;
  }

  /** This process's counts as the others receive them: channel id → in flight, channels at 0 left out. */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.local);
  }

  /** What the other processes reported, added up. */
  setOthers(counts: ReadonlyMap<number, number>): void {
    this.others = new Map(counts);
  }
}

/** Adds up the reports of several processes (channel id → count) into one map. */
export function addUpReports(reports: Iterable<Readonly<Record<string, number>>>): Map<number, number> {
  const total = new Map<number, number>();
  for (const report of reports) {
    for (const [id, count] of Object.entries(report)) {
      const channelId = Number(id);
      if (Number.isSafeInteger(channelId) && typeof count === 'number' && count > 0) total.set(channelId, (total.get(channelId) ?? 0) + count);
    }
  }
  return total;
}
