import { describe, expect, it } from 'vitest';
import { AppError } from './app-error.ts';
import { SlowDown } from './slow-down.ts';

describe('slow-down', () => {
  it('waits longer with every attempt past the limit, up to the cap', async () => {
    const waits: number[] = [];
    const slowDown = new SlowDown({ stepMs: 250, maxDelayMs: 10_000 }, async (ms) => void waits.push(ms));
    for (const excess of [1, 2, 3, 4, 5, 6, 7, 50, 5000]) await slowDown.pause(excess);
    expect(waits).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
  });

  it('refuses with 429 once too many requests are waiting, and makes room as they finish', async () => {
    const pending: Array<() => void> = [];
    const slowDown = new SlowDown({ maxWaiting: 3 }, () => new Promise<void>((resolve) => pending.push(resolve)));
    const waiting = [slowDown.pause(1), slowDown.pause(1), slowDown.pause(1)];
    await expect(slowDown.pause(1)).rejects.toSatisfy((error) => error instanceof AppError && error.status === 429);
    pending.shift()?.();
    await waiting[0];
    const next = slowDown.pause(1);
    expect(pending).toHaveLength(3);
    for (const resolve of pending) resolve();
    await Promise.all([...waiting, next]);
  });
});
