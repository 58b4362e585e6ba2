import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';
import { compactStartupGarbage, countOpenRequests, cpuBusyShare, MemoryReturn, memoryReturnDefaults, startMemoryReturn } from './memory-return.ts';

const megabytes = (count: number) => count * 1024 * 1024;

/** A memory return over a scripted heap and load; `collect` shrinks the heap to `afterCollect`. */
function scripted(start: number) {
  const state = { heap: megabytes(start), busy: 0, open: 0, afterCollect: megabytes(start), concurrent: 0, lastWasConcurrent: false, collections: 0 };
  const memoryReturn = new MemoryReturn({
    logger: createLogger('silent'),
    footprintBytes: () => state.heap,
    busyShare: () => state.busy,
    openRequests: () => state.open,
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

  it('waits while a request is open, however idle the loop (a few slow streams)', () => {
    const { state, check } = scripted(30);
    state.heap = megabytes(120);
    state.open = 3;
    for (let round = 0; round < 10; round += 1) expect(check()).toBe(false);
    expect(state.concurrent).toBe(0);
    state.open = 0;
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) expect(check()).toBe(false);
    // A stream opened between the two collections: the compacting one waits for the next quiet spell.
    state.open = 1;
    expect(check()).toBe(false);
    expect([state.concurrent, state.collections]).toEqual([1, 0]);
  });

  it("counts a server's requests while they are open, streams included, and after they close or are cut", async () => {
    let finishStream: () => void = () => undefined;
    const server = createServer((request, response) => {
      if (request.url === '/stream') {
        response.write('data: first\n\n');
        finishStream = () => response.end('data: [DONE]\n\n');
      } else response.end('ok');
    });
    const open = countOpenRequests(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await (await fetch(`${base}/plain`)).text();
      expect(open()).toBe(0);
      const stream = await fetch(`${base}/stream`);
      expect(open()).toBe(1);
      finishStream();
      await stream.text();
      await new Promise((resolve) => setImmediate(resolve));
      expect(open()).toBe(0);
      const cut = new AbortController();
      const cutStream = await fetch(`${base}/stream`, { signal: cut.signal });
      expect(open()).toBe(1);
      cut.abort();
      await cutStream.text().catch(() => undefined);
      await expect.poll(open).toBe(0);
    } finally {
      server.close();
    }
  });

  it("compacts after the concurrent collection though that collection's own work made the loop a little busy", () => {
    const { state, check } = scripted(30);
    state.heap = megabytes(116);
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) expect(check()).toBe(false);
    expect(state.concurrent).toBe(1);
    // As measured after 2,000 streams: the concurrent collection shrank the heap figure and cost 4.5 % of the next check.
    state.heap = megabytes(58);
    state.busy = 0.045;
    expect(check()).toBe(true);
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

  it("gives back one worker's share of a burst the default tree must return: 20 MB each of two workers", () => {
    // The tree's bound is 10 % above its level before the burst, some 28-30 MB (bench/src/memory); two
    // workers that each keep 20 MB are 40 MB above it while neither alone passes that bound.
    const { state, check } = scripted(100);
    state.heap = megabytes(120);
    state.afterCollect = megabytes(101);
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) expect(check()).toBe(false);
    expect(check()).toBe(true);
    expect(state.heap).toBe(megabytes(101));
  });

  it('trims the C allocator right after the compacting collection, and counts the next growth from the trimmed size', async () => {
    // After 2,000 streams each worker's heap was back but glibc's arena kept 10-25 MB of freed chunks.
    const events: string[] = [];
    let footprint = megabytes(100);
    const memoryReturn = new MemoryReturn({
      logger: createLogger('silent'),
      footprintBytes: () => footprint,
      busyShare: () => 0,
      collect: (options) => {
        events.push(options.execution === 'async' ? 'concurrent' : 'compacting');
        if (options.execution === 'sync') footprint = megabytes(130);
      },
      trimMalloc: async () => {
        events.push('trim');
        footprint = megabytes(108);
        return true;
      },
    });
    footprint = megabytes(150);
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) memoryReturn.check();
    expect(memoryReturn.check()).toBe(true);
    expect(events).toEqual(['concurrent', 'compacting', 'trim']);
    await new Promise((resolve) => setImmediate(resolve));
    // Growth from 108 MB, not from 130: 16 MB more is another burst to give back.
    footprint = megabytes(108) + memoryReturnDefaults.growthBytes;
    for (let quiet = 0; quiet < memoryReturnDefaults.quietChecks; quiet += 1) memoryReturn.check();
    expect(memoryReturn.check()).toBe(true);
    expect(events).toEqual(['concurrent', 'compacting', 'trim', 'concurrent', 'compacting', 'trim']);
  });

  it('compacts the WORKERS primary once when asked, only where --expose-gc gave a gc', () => {
    const global = globalThis as { gc?: unknown };
    const original = global.gc;
    try {
      delete global.gc;
      expect(compactStartupGarbage()).toBe(false);
      const calls: unknown[] = [];
      global.gc = (options: unknown) => calls.push(options);
      expect(compactStartupGarbage()).toBe(true);
      expect(calls).toEqual([{ type: 'major', execution: 'sync', flavor: 'last-resort' }]);
    } finally {
      global.gc = original;
    }
  });

  it('starts only where --expose-gc gave a gc, compacting what start-up left first', () => {
    const global = globalThis as { gc?: unknown };
    const original = global.gc;
    try {
      delete global.gc;
      expect(startMemoryReturn(createLogger('silent'), createServer())).toBeUndefined();
      const calls: unknown[] = [];
      global.gc = (options: unknown) => calls.push(options);
      const started = startMemoryReturn(createLogger('silent'), createServer());
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
        const memoryReturn = new MemoryReturn({ collect: globalThis.gc, logger: { info() {}, debug() {} }, busyShare: () => 0 });
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

  it("reads growth in the process's RSS by default, not in V8's heap figure", () => {
    // After the gateway's picture burst V8 had brought heapTotal back near idle while RSS stayed
    // 100-160 MB up per worker: a check reading the heap never fired.
    const seen: number[] = [];
    const logger = { ...createLogger('silent'), debug: (fields: { rssMb: number }) => seen.push(fields.rssMb) } as unknown as ReturnType<typeof createLogger>;
    const memoryReturn = new MemoryReturn({ collect: () => undefined, logger, busyShare: () => 0 });
    memoryReturn.check();
    const { rss, heapTotal } = process.memoryUsage();
    expect(seen).toHaveLength(1);
    expect(Math.abs(seen[0]! - rss / 1_048_576)).toBeLessThan(16);
    expect(seen[0]! * 1_048_576).toBeGreaterThan(heapTotal);
  });

  it('reads busy as CPU time over wall time, so waiting for a core on a loaded machine is not busy', () => {
    const clock = { cpuMicros: 0, nowMs: 0 };
    const busy = cpuBusyShare(
      () => clock.cpuMicros,
      () => clock.nowMs,
    );
    // 2 s between checks, 10 ms of CPU: idle, however long the timers waited for a core meanwhile.
    clock.nowMs += 2000;
    clock.cpuMicros += 10_000;
    expect(busy()).toBeCloseTo(0.005);
    // 1 s of CPU in 2 s (the collector's threads count too: more than one core's worth reads above 1).
    clock.nowMs += 2000;
    clock.cpuMicros += 1_000_000;
    expect(busy()).toBeCloseTo(0.5);
    expect(busy()).toBe(0);
  });

  it("reads this process's own CPU time by default", () => {
    // Spins until the process has used 50 ms of CPU, however long a loaded machine makes that take.
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const busy = cpuBusyShare();
    const used = () => {
      const { user, system } = process.cpuUsage(cpuBefore);
      return (user + system) / 1000;
    };
    while (used() < 50) Math.sqrt(Math.random());
    const share = busy();
    const expected = used() / (performance.now() - started);
    expect(share).toBeGreaterThan(expected * 0.8);
    expect(share).toBeLessThan(expected * 1.25);
  });
});
