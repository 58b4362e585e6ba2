import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { MemoryReturn, memoryReturnDefaults, startMemoryReturn } from './memory-return.ts';

const megabytes = (count: number) => count * 1024 * 1024;

/** A memory return over a scripted heap and load; `collect` shrinks the heap to `afterCollect`. */
function scripted(start: number) {
  const state = { heap: megabytes(start), busy: 0, afterCollect: megabytes(start), concurrent: 0, lastWasConcurrent: false, collections: 0 };
  const memoryReturn = new MemoryReturn({
    logger: createLogger('silent'),
    heapBytes: () => state.heap,
    busyShare: () => state.busy,
    collect: (options) => {
      if (options.execution === 'async') {
        state.concurrent += 1;
        state.lastWasConcurrent = true;
        return;
      }
      expect(options).toEqual({ type: 'major', execution: 'sync', flavor: 'last-resort' });
      // The compacting collection comes right after a concurrent one.
      expect(state.lastWasConcurrent).toBe(true);
      state.lastWasConcurrent = false;
      state.collections += 1;
      state.heap = state.afterCollect;
    },
  });
  return { state, check: () => memoryReturn.check() };
}

describe('MemoryReturn', () => {
  it('frees then compacts once the heap has grown and the process has been quiet for the set number of checks', () => {
    const { state, check } = scripted(40);
    state.heap = megabytes(125);
    state.busy = 0.6;
    expect(check()).toBe(false);
    state.busy = 0.01;
    for (let quiet = 1; quiet < memoryReturnDefaults.quietChecks; quiet += 1) expect(check()).toBe(false);
    expect(state.concurrent).toBe(0);
    expect(check()).toBe(false);
    expect(state.concurrent).toBe(1);
    expect(check()).toBe(true);
    expect(state.collections).toBe(1);
    // Quiet and unchanged afterwards: nothing more to give back.
    for (let round = 0; round < 10; round += 1) expect(check()).toBe(false);
    expect(state.collections).toBe(1);
  });

  it('starts over when load returns between the concurrent and the compacting collection', () => {
    const { state, check } = scripted(40);
    state.heap = megabytes(125);
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) check();
    expect(state.concurrent).toBe(1);
    state.busy = 0.4;
    expect(check()).toBe(false);
    state.busy = 0;
    for (let quiet = 1; quiet < memoryReturnDefaults.quietChecks; quiet += 1) expect(check()).toBe(false);
    expect(check()).toBe(false);
    expect(state.concurrent).toBe(2);
    expect(check()).toBe(true);
  });

  it('waits while the process is busy, and a busy check starts the quiet count again', () => {
    const { state, check } = scripted(40);
    state.heap = megabytes(200);
    for (let round = 0; round < 10; round += 1) {
      state.busy = round % memoryReturnDefaults.quietChecks === 0 ? 0.3 : 0.01;
      expect(check()).toBe(false);
    }
    expect(state.collections).toBe(0);
  });

  it('leaves a heap that grew less than the threshold, counting growth from its lowest size', () => {
    const { state, check } = scripted(60);
    state.heap = megabytes(60) + memoryReturnDefaults.growthBytes - 1;
    for (let round = 0; round < 5; round += 1) expect(check()).toBe(false);
    // V8 shrank the heap on its own under some load; growth from there is what counts.
    state.heap = megabytes(30);
    state.busy = 0.5;
    expect(check()).toBe(false);
    state.busy = 0;
    state.heap = megabytes(30) + memoryReturnDefaults.growthBytes;
    state.afterCollect = megabytes(35);
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) expect(check()).toBe(false);
    expect(check()).toBe(true);
  });

  it('starts only where --expose-gc gave a gc, compacting what start-up left first', () => {
    const global = globalThis as { gc?: unknown };
    const original = global.gc;
    try {
      delete global.gc;
      expect(startMemoryReturn(createLogger('silent'))).toBeUndefined();
      const calls: unknown[] = [];
      global.gc = (options: unknown) => calls.push(options);
      const started = startMemoryReturn(createLogger('silent'));
      started?.stop();
      expect(started).toBeInstanceOf(MemoryReturn);
      expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    } finally {
      global.gc = original;
    }
  });

  it("gives a burst's heap back to the system in a real process started with --expose-gc", () => {
    // A child process of its own, so the figures are its alone: a 150 MB burst of short-lived objects,
    // then the quiet checks; its RSS must fall by most of the burst.
    const child = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--max-semi-space-size=8',
        '--input-type=module',
        '-e',
        `
        import { MemoryReturn } from ${JSON.stringify(new URL('./memory-return.ts', import.meta.url).href)};
        const memoryReturn = new MemoryReturn({ collect: globalThis.gc, logger: { info() {} }, busyShare: () => 0 });
        let burst = [];
        for (let index = 0; index < 1_500_000; index += 1) burst.push({ index, text: 'stream frame ' + index });
        const peak = process.memoryUsage().rss;
        burst = undefined;
        let collected = false;
        for (let check = 0; check < 6 && !collected; check += 1) {
          collected = memoryReturn.check();
          // The concurrent collection finishes in V8's background tasks, between turns of the loop.
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        console.log(JSON.stringify({ collected, peak, after: process.memoryUsage().rss }));
        `,
      ],
      { encoding: 'utf8' },
    );
    expect(child.stderr).toBe('');
    const { collected, peak, after } = JSON.parse(child.stdout) as { collected: boolean; peak: number; after: number };
    expect(collected).toBe(true);
    expect(peak - after).toBeGreaterThan(megabytes(100));
  });
});
