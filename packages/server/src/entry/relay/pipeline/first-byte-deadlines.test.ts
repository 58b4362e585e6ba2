import { describe, expect, it } from 'vitest';
import { DeadlineSet } from './first-byte-deadlines.ts';

describe('the shared first-byte deadlines', () => {
  it('expires an entry once its time has passed, and only then', () => {
    let now = 1_000;
    const deadlines = new DeadlineSet(() => now, 60_000);
    const expired: string[] = [];
    deadlines.add({ at: 1_500, expire: () => expired.push('first') });
    deadlines.add({ at: 3_000, expire: () => expired.push('second') });
    deadlines.check();
    expect(expired).toEqual([]);
    now = 1_500;
    deadlines.check();
    expect(expired).toEqual(['first']);
    now = 10_000;
    deadlines.check();
    deadlines.check();
    expect(expired).toEqual(['first', 'second']);
    expect(deadlines.size).toBe(0);
  });

  it('never expires an entry removed before its time (the first byte came)', () => {
    let now = 0;
    const deadlines = new DeadlineSet(() => now, 60_000);
    let expired = 0;
    const deadline = { at: 100, expire: () => (expired += 1) };
    deadlines.add(deadline);
    deadlines.remove(deadline);
    now = 1_000;
    deadlines.check();
    expect(expired).toBe(0);
    expect(deadlines.size).toBe(0);
  });

  it('expires on its own interval, which stops once nothing waits', async () => {
    const deadlines = new DeadlineSet(Date.now, 5);
    const expired = new Promise<number>((resolve) => deadlines.add({ at: Date.now() + 20, expire: () => resolve(Date.now()) }));
    const addedAt = Date.now();
    expect(await expired).toBeGreaterThanOrEqual(addedAt + 20);
    expect(deadlines.size).toBe(0);
    // The interval is gone: checking again finds nothing and starts nothing.
    expect((deadlines as unknown as { timer: unknown }).timer).toBeUndefined();
  });
});
