import { describe, expect, it } from 'vitest';
import type { OptionRepository } from './option.repository.ts';
import { OptionStore } from './option-store.ts';
import { silentBus } from './testing/memory-option-store.ts';

/** A table whose reads can be held, to let a read overlap a write as database connections do. */
class SlowTable {
  readonly rows = new Map<string, string>();
  private held: Array<() => void> = [];
  holdReads = false;

  async readAll(): Promise<Map<string, string>> {
    const snapshot = new Map(this.rows);
    if (this.holdReads) await new Promise<void>((resolve) => this.held.push(resolve));
    return snapshot;
  }

  async insertMissing(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    for (const [key, value] of entries) if (!this.rows.has(key)) this.rows.set(key, value);
  }

  async upsert(key: string, value: string): Promise<void> {
    this.rows.set(key, value);
  }

  releaseReads(order: 'oldest first' | 'newest first' = 'oldest first'): void {
    const held = order === 'oldest first' ? this.held : [...this.held].reverse();
    this.held = [];
    for (const release of held) release();
  }
}

async function storeOn(table: SlowTable): Promise<OptionStore> {
  const store = new OptionStore(table as unknown as OptionRepository, silentBus);
  await store.initialise();
  return store;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('OptionStore', () => {
  it('keeps a value saved while an older read was in flight', async () => {
    const table = new SlowTable();
    const store = await storeOn(table);
    table.holdReads = true;
    const staleReload = store.reload();
    await store.set('QuotaForInviter', '50');
    table.releaseReads();
    await staleReload;
    expect(store.getNumber('QuotaForInviter')).toBe(50);
  });

  it('drops a reload that finishes after a newer one', async () => {
    const table = new SlowTable();
    const store = await storeOn(table);
    table.holdReads = true;
    const older = store.reload();
    table.rows.set('QuotaForNewUser', '777');
    const newer = store.reload();
    table.releaseReads('newest first');
    await Promise.all([older, newer]);
    await settle();
    expect(store.getNumber('QuotaForNewUser')).toBe(777);
  });

  it('still takes changes other tools made in the database', async () => {
    const table = new SlowTable();
    const store = await storeOn(table);
    await store.set('QuotaForInvitee', '20');
    table.rows.set('QuotaForInvitee', '30');
    await store.reload();
    expect(store.getNumber('QuotaForInvitee')).toBe(30);
  });
});
