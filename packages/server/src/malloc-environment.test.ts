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

describe('serverMallocEnvironment', () => {
  it('gives freed large bodies back to the system at once, which the default threshold does not', () => {
    const withDefaults = rssAfterFreedBodies({ PATH: process.env.PATH });
    const withServer = rssAfterFreedBodies(withServerMallocEnvironment({ PATH: process.env.PATH }));
    expect(withServer.after - withServer.idle).toBeLessThan(megabytes(32));
    // The reason the setting exists: without it the freed bodies stay in the process.
    expect(withDefaults.after - withDefaults.idle).toBeGreaterThan(megabytes(100));
  });

  it("keeps the operator's own value", () => {
    expect(withServerMallocEnvironment({ MALLOC_MMAP_THRESHOLD_: '65536', PORT: '3000' })).toEqual({ MALLOC_MMAP_THRESHOLD_: '65536', PORT: '3000' });
    expect(withServerMallocEnvironment({ PORT: '3000' })).toEqual({ ...serverMallocEnvironment, PORT: '3000' });
  });
});
