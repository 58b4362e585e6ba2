import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { serverMallocEnvironment, withServerMallocEnvironment } from './malloc-environment.ts';

const megabytes = (count: number) => count * 1024 * 1024;

/**
 * A child that receives two rounds of 40 large bodies (6 MB, then 5 MB) while keeping a small block
 * from each request (as a gateway keeps its caches and connections), frees them, and reports its RSS.
 */
function rssAfterFreedBodies(environment: NodeJS.ProcessEnv): { idle: number; after: number } {
  const child = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--input-type=module',
      '-e',
      `
      const idle = process.memoryUsage.rss();
      const kept = [];
      for (let round = 0; round < 2; round += 1) {
        let bodies = Array.from({ length: 40 }, (_, index) => {
          kept.push(Buffer.allocUnsafeSlow(4096));
          return Buffer.alloc((6 - round) * 1024 * 1024, index);
        });
        bodies = undefined;
        globalThis.gc();
        // V8 frees the bodies' memory after the collection, off the main thread.
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      console.log(JSON.stringify({ idle, after: process.memoryUsage.rss(), kept: kept.length }));
      `,
    ],
    { encoding: 'utf8', env: environment },
  );
  expect(child.stderr).toBe('');
  return JSON.parse(child.stdout) as { idle: number; after: number };
}

/** glibc's malloc arenas besides the main one in a child after work on every thread-pool thread: each is a 64 MiB-aligned heap of 64 MiB. */
function arenasAfterThreadWork(environment: NodeJS.ProcessEnv): number {
  const child = spawnSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `
      import { readFileSync } from 'node:fs';
      import { gzip } from 'node:zlib';
      await Promise.all(Array.from({ length: 8 }, (_, index) => new Promise((resolve) => gzip(Buffer.alloc(4 << 20, index), resolve))));
      const heap = 64n << 20n;
      const maps = readFileSync('/proc/self/maps', 'utf8').trim().split('\\n').map((line) => {
        const [range, perms, , , , path] = line.split(/\\s+/);
        const [start, end] = range.split('-').map((hex) => BigInt('0x' + hex));
        return { start, end, perms, anonymous: !path };
      });
      let arenas = 0;
      for (const map of maps) {
        if (!map.anonymous || map.perms !== 'rw-p' || map.start % heap !== 0n) continue;
        const reserved = maps.find((next) => next.start === map.end && next.perms === '---p');
        if ((reserved ? reserved.end : map.end) - map.start === heap) arenas += 1;
      }
      console.log(arenas);
      `,
    ],
    { encoding: 'utf8', env: environment },
  );
  expect(child.stderr).toBe('');
  return Number(child.stdout);
}

describe('serverMallocEnvironment', () => {
  it("keeps one malloc arena beside the main one, where each of Node's threads would otherwise take its own", () => {
    expect(arenasAfterThreadWork(withServerMallocEnvironment({ PATH: process.env.PATH }))).toBeLessThanOrEqual(1);
    expect(arenasAfterThreadWork({ PATH: process.env.PATH })).toBeGreaterThan(2);
  });

  it('gives freed large bodies back to the system at once, which the default threshold does not', () => {
    const withDefaults = rssAfterFreedBodies({ PATH: process.env.PATH });
    const withServer = rssAfterFreedBodies(withServerMallocEnvironment({ PATH: process.env.PATH }));
    expect(withServer.after - withServer.idle).toBeLessThan(megabytes(32));
    // The reason the setting exists: without it the freed bodies stay in the process.
    expect(withDefaults.after - withDefaults.idle).toBeGreaterThan(megabytes(100));
  });

  it("keeps the operator's own value", () => {
    expect(withServerMallocEnvironment({ MALLOC_MMAP_THRESHOLD_: '65536', PORT: '3000' })).toEqual({
      MALLOC_MMAP_THRESHOLD_: '65536',
      MALLOC_ARENA_MAX: '2',
      PORT: '3000',
    });
    expect(withServerMallocEnvironment({ MALLOC_ARENA_MAX: '4' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '4' });
    expect(withServerMallocEnvironment({ PORT: '3000' })).toEqual({ ...serverMallocEnvironment, PORT: '3000' });
  });
});
