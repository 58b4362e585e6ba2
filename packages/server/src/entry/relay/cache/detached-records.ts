/**
 * Records a bounded cache has let go of, remembered weakly by id until the garbage collector takes
 * them. A request in flight may still hold an evicted token or user (its reservation moves that very
 * object's balance when it settles); if the id is loaded again meanwhile, the cache must re-use that
 * object rather than make a second one, or the settlement would move a balance nobody reads any more.
 * An object nothing holds is collected, and its entry goes with it: this costs nothing per cached entry.
 */
export class DetachedRecords<T extends object> {
  private readonly byId = new Map<number, WeakRef<T>>();
  private readonly collected = new FinalizationRegistry<{ id: number; ref: WeakRef<T> }>(({ id, ref }) => {
    if (this.byId.get(id) === ref) this.byId.delete(id);
  });

  /** Remembers an evicted record. */
  keep(id: number, record: T): void {
    const ref = new WeakRef(record);
    this.byId.set(id, ref);
    this.collected.register(record, { id, ref }, ref);
  }

  /** The evicted record of this id if something still holds it; it is forgotten here either way. */
  take(id: number): T | undefined {
    const ref = this.byId.get(id);
    if (!ref) return undefined;
    this.byId.delete(id);
    this.collected.unregister(ref);
    return ref.deref();
  }

  /** Evicted records not collected yet (tests). */
  get size(): number {
    return this.byId.size;
  }
}
