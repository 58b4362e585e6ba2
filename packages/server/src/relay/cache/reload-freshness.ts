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

  /** Call when a single record's re-read starts. */
  rereading(id: number): void {
    this.rereadAt.set(id, ++this.reads);
  }

  /** True when the record was re-read after the full reload that started at `since` began. */
  isFresher(id: number, since: number): boolean {
    return (this.rereadAt.get(id) ?? 0) > since;
  }

  fullReloadDone(since: number): void {
    for (const [id, at] of this.rereadAt) if (at <= since) this.rereadAt.delete(id);
  }
}
