import { describe, expect, it } from 'vitest';
import { QuotaLedger } from '../../../domain/billing/quota-ledger.ts';
import { settledHeapBytes } from '../../../testing/heap-measure.ts';
import type { UserReads, UserRow } from './relay-cache.repository.ts';
import { UserCache } from './user-cache.ts';

/** What one cached user may cost at most, its record and its index entry included (measured: about 280 bytes). */
const bytesPerUserCeiling = 450;

/** User rows made up on demand (a name, an address, a setting), held by nothing but the cache. */
class GeneratedUserRows implements UserReads {
  private row(id: number): UserRow {
    return {
      id,
      username: Buffer.from(`user${id}`).toString(),
      role: 1,
      status: 1,
      group: 'default',
      quota: 1_000_000,
      used_quota: 0,
      request_count: 0,
      setting: null,
      email: Buffer.from(`user${id}@example.com`).toString(),
    };
  }

  userById(id: number): Promise<UserRow | undefined> {
    return Promise.resolve(this.row(id));
  }

  usersByIds(ids: readonly number[]): Promise<UserRow[]> {
    return Promise.resolve(ids.map((id) => this.row(id)));
  }
}

async function loadUsers(cache: UserCache, from: number, count: number): Promise<void> {
  for (let id = from; id < from + count; id += 1) await cache.lookup(id);
}

describe('user cache memory', () => {
  it(`holds a user in at most ${bytesPerUserCeiling} bytes`, async () => {
    const cache = new UserCache(new GeneratedUserRows(), new QuotaLedger(), 20_000);
    const before = await settledHeapBytes();
    await loadUsers(cache, 1, 10_000);
    const after = await settledHeapBytes();
    const perUser = (after - before) / 10_000;
    console.log(`user cache: ${Math.round(perUser)} bytes per cached user`);
    expect(cache.size).toBe(10_000);
    expect(perUser).toBeLessThan(bytesPerUserCeiling);
  });

  it('stays within its capacity, in entries and in bytes, however many users call', async () => {
    const capacity = 1_000;
    const cache = new UserCache(new GeneratedUserRows(), new QuotaLedger(), capacity);
    // Filled, then evicting for a while: the code of the eviction path is compiled before measuring.
    await loadUsers(cache, 1, 20 * capacity);
    const full = await settledHeapBytes();
    await loadUsers(cache, 20 * capacity + 1, 20 * capacity);
    const after = await settledHeapBytes();
    expect(after - full).toBeLessThan(capacity * bytesPerUserCeiling);
    expect(cache.size).toBeLessThanOrEqual(capacity);
  });
});
