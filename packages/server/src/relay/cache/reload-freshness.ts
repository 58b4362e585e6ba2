/**
 * Which records were re-read one by one after a full reload began. A full reload's read can predate
 * a change whose single re-read (sent over the change bus after the write) already applied; its older
 * row must not overwrite the fresher one, or a disabled token would work again until the next reload.
 */
export class ReloadFreshness {
  private reads = 0;
  private readonly rereadAt = new Map<number, number>();

  /** Call when a full reload starts; pass the result to `isFresher` and `fullReloadDone`. */
  fullReloadStarting(): number {
    return this.reads;
  }

  /** Call when a single record's re-read starts; pass the result to `isNewestReread` when it ends. */
  rereading(id: number): number {
    const read = ++this.reads;
    this.rereadAt.set(id, read);
    return read;
  }

  /**
   * False when a later re-read of the record started meanwhile (two changes in quick succession, on
   * pooled connections that may answer in any order): the later one's row is the newer, and it
   * applies instead, so a re-enabled token is never disabled again by the first change's late read.
   */
  isNewestReread(id: number, read: number): boolean {
    return (this.rereadAt.get(id) ?? read) <= read;
  }

  /** True when the record was re-read after the full reload that started at `since` began. */
  isFresher(id: number, since: number): boolean {
    return (this.rereadAt.get(id) ?? 0) > since;
  }

  fullReloadDone(since: number): void {
    for (const [id, at] of this.rereadAt) if (at <= since) this.rereadAt.delete(id);
  }
}
