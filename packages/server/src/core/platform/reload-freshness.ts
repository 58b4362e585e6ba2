/**
 * Which records were re-read one by one while a wider read ran. A wide read (the periodic reload of
 * what a cache holds, a token's first read by key) can predate a change whose single re-read (sent
 * over the change bus after the write) already applied; its older row must not overwrite the fresher
 * one, or a disabled token would work again until the next reload.
 *
 * A record's mark lives only while someone may ask about it: a re-read of it in flight, or a wide read
 * that started before it. So the marks stay as few as the changes in flight, not one per record read.
 */
export class ReloadFreshness {
  private reads = 0;
  private readonly rereadAt = new Map<number, number>();
  /** Re-reads in flight per record. */
  private readonly rereadsRunning = new Map<number, number>();
  /** Wide reads in flight, by the `since` they started at. */
  private readonly wideRunning = new Map<number, number>();

  /** Call when a wide read starts; pass the result to `isFresher` and `wideReadDone`. */
  wideReadStarting(): number {
    const since = this.reads;
    this.wideRunning.set(since, (this.wideRunning.get(since) ?? 0) + 1);
    return since;
  }

  /** True when the record was re-read (or marked changed) after the wide read that started at `since` began. */
  isFresher(id: number, since: number): boolean {
    return (this.rereadAt.get(id) ?? 0) > since;
  }

  wideReadDone(since: number): void {
    const running = (this.wideRunning.get(since) ?? 1) - 1;
    if (running > 0) this.wideRunning.set(since, running);
    else this.wideRunning.delete(since);
    const oldest = this.oldestWideRead();
    for (const [id, at] of this.rereadAt) if (at <= oldest && !this.rereadsRunning.has(id)) this.rereadAt.delete(id);
  }

  /** Call when a single record's re-read starts; pass the result to `isNewestReread` and call `rereadDone` when it ends. */
  rereading(id: number): number {
    const read = ++this.reads;
    this.rereadAt.set(id, read);
    this.rereadsRunning.set(id, (this.rereadsRunning.get(id) ?? 0) + 1);
    return read;
  }

  /**
   * Marks the record changed without reading it (a record the cache does not hold): a wide read in
   * flight that may have read it before the change then knows to read it again.
   */
  changed(id: number): void {
    if (this.wideRunning.size > 0) this.rereadAt.set(id, ++this.reads);
  }

  /**
   * False when a later re-read of the record started meanwhile (two changes in quick succession, on
   * pooled connections that may answer in any order): the later one's row is the newer, and it
   * applies instead, so a re-enabled token is never disabled again by the first change's late read.
   */
  isNewestReread(id: number, read: number): boolean {
    return (this.rereadAt.get(id) ?? read) <= read;
  }

  rereadDone(id: number): void {
    const running = (this.rereadsRunning.get(id) ?? 1) - 1;
    if (running > 0) return void this.rereadsRunning.set(id, running);
    this.rereadsRunning.delete(id);
    const at = this.rereadAt.get(id);
    if (at !== undefined && at <= this.oldestWideRead()) this.rereadAt.delete(id);
  }

  /** The start of the oldest wide read in flight; past every mark when none runs. */
  private oldestWideRead(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const since of this.wideRunning.keys()) if (since < oldest) oldest = since;
    return oldest;
  }

  /** Marks held now (tests: they must not grow with the records read). */
  get size(): number {
    return this.rereadAt.size;
  }
}
