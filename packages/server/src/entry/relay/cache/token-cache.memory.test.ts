import { describe, expect, it } from 'vitest';
import { QuotaLedger } from '../../../domain/billing/quota-ledger.ts';
import { settledHeapBytes } from '../../../testing/heap-measure.ts';
import { GeneratedTokenRows, generatedKey } from './testing/generated-token-rows.ts';
import { TokenCache } from './token-cache.ts';

/** What one cached token may cost at most, its record and both indexes' entries included (measured: about 410 bytes). */
const bytesPerTokenCeiling = 600;

async function loadKeys(cache: TokenCache, from: number, count: number): Promise<void> {
  for (let id = from; id < from + count; id += 1) await cache.lookup(generatedKey(id));
}

describe('token cache memory', () => {
  it(`holds a token in at most ${bytesPerTokenCeiling} bytes`, async () => {
    const cache = new TokenCache(new GeneratedTokenRows(), new QuotaLedger(), () => 0, 20_000);
    const before = await settledHeapBytes();
    await loadKeys(cache, 1, 10_000);
    const after = await settledHeapBytes();
    const perToken = (after - before) / 10_000;
    console.log(`token cache: ${Math.round(perToken)} bytes per cached token`);
    expect(cache.size).toBe(10_000);
    expect(perToken).toBeLessThan(bytesPerTokenCeiling);
  });

  it('stays within its capacity, in entries and in bytes, however many keys are used', async () => {
    const capacity = 1_000;
    const cache = new TokenCache(new GeneratedTokenRows(), new QuotaLedger(), () => 0, capacity);
    // Filled, then evicting for a while: the code of the eviction path is compiled before measuring.
    await loadKeys(cache, 1, 20 * capacity);
    const full = await settledHeapBytes();
    await loadKeys(cache, 20 * capacity + 1, 20 * capacity);
    const after = await settledHeapBytes();
    // Unbounded, 20,000 more tokens would take some 8 MB; bounded, the heap stays where it was.
    expect(after - full).toBeLessThan(capacity * bytesPerTokenCeiling);
    expect(cache.size).toBeLessThanOrEqual(capacity);
  });
});
