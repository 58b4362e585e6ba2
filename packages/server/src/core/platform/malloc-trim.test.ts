import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { bindGlibcMallocTrim, lazyMallocTrim, type LoadForeignLibrary } from './malloc-trim.ts';

/** A foreign-library loader that records what it was asked and answers `result` from malloc_trim. */
function fakeLibrary(result: number) {
  const asked: { paths: string[]; prototypes: string[]; calls: number[][] } = { paths: [], prototypes: [], calls: [] };
  const load: LoadForeignLibrary = (path) => {
    asked.paths.push(path);
    return {
      func: (prototype) => {
        asked.prototypes.push(prototype);
        return {
          async: (...parameters) => {
            const answer = parameters.pop() as (error: unknown, result: number) => void;
            asked.calls.push(parameters as number[]);
            setImmediate(() => answer(null, result));
          },
        };
      },
    };
  };
  return { asked, load };
}

describe('glibc malloc_trim', () => {
  it('binds malloc_trim in libc.so.6 and calls it off the event loop with no padding kept', async () => {
    const { asked, load } = fakeLibrary(1);
    const binding = bindGlibcMallocTrim(() => load, 'linux');
    expect('trim' in binding && (await binding.trim())).toBe(true);
    expect(asked).toEqual({ paths: ['libc.so.6'], prototypes: ['int malloc_trim(size_t pad)'], calls: [[0]] });
    const nothingFreed = bindGlibcMallocTrim(() => fakeLibrary(0).load, 'linux');
    expect('trim' in nothingFreed && (await nothingFreed.trim())).toBe(false);
  });

  it('is skipped without loading koffi where there is no glibc, and when the library or koffi is missing (musl)', () => {
    let loads = 0;
    expect(
      bindGlibcMallocTrim(() => {
        loads += 1;
        return fakeLibrary(1).load;
      }, 'darwin'),
    ).toEqual({ skipped: 'no glibc on darwin' });
    expect(loads).toBe(0);
    const noLibc: LoadForeignLibrary = () => {
      throw new Error('Failed to load shared library: libc.so.6: cannot open shared object file');
    };
    expect(bindGlibcMallocTrim(() => noLibc, 'linux')).toEqual({ skipped: expect.stringContaining('libc.so.6') });
    const noKoffi = () => {
      throw new Error("Cannot find module 'koffi'");
    };
    expect(bindGlibcMallocTrim(noKoffi, 'linux')).toEqual({ skipped: "Cannot find module 'koffi'" });
  });

  it('binds on the first trim, not before, and says once why it is skipped', async () => {
    let binds = 0;
    const skipped: string[] = [];
    const trim = lazyMallocTrim(
      (reason) => skipped.push(reason),
      () => {
        binds += 1;
        return { skipped: 'no glibc on darwin' };
      },
    );
    expect(binds).toBe(0);
    expect([await trim(), await trim()]).toEqual([false, false]);
    expect([binds, skipped]).toEqual([1, ['no glibc on darwin']]);
    let trims = 0;
    const bound = lazyMallocTrim(
      () => expect.fail('bound'),
      () => ({ trim: async () => (trims += 1) > 0 }),
    );
    expect([await bound(), await bound(), trims]).toEqual([true, true, 2]);
  });

  it.runIf(process.platform === 'linux')("gives glibc's freed chunks between live ones back to the system in a real process", () => {
    // As after a stream burst: 64 KiB Buffers (below the server's mmap threshold, so in the main arena),
    // one in eight still alive, the rest freed and collected; free() cannot give back the holes.
    const child = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--input-type=module',
        '-e',
        `
        import { bindGlibcMallocTrim } from ${JSON.stringify(new URL('./malloc-trim.ts', import.meta.url).href)};
        const rss = () => process.memoryUsage().rss;
        const kept = [];
        let freed = [];
        for (let index = 0; index < 2000; index += 1) {
          const read = Buffer.allocUnsafeSlow(65536).fill(index);
          (index % 8 === 7 ? kept : freed).push(read);
        }
        freed = undefined;
        globalThis.gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
        await new Promise((resolve) => setTimeout(resolve, 100));
        const collected = rss();
        const binding = bindGlibcMallocTrim();
        const released = 'trim' in binding ? await binding.trim() : binding.skipped;
        console.log(JSON.stringify({ released, collected, trimmed: rss(), kept: kept.length }));
        `,
      ],
      { encoding: 'utf8', env: { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' } },
    );
    expect(child.stderr).toBe('');
    const { released, collected, trimmed } = JSON.parse(child.stdout) as { released: boolean | string; collected: number; trimmed: number };
    expect(released).toBe(true);
    // 1,750 freed reads of 64 KiB are 109 MiB.
    expect(collected - trimmed).toBeGreaterThan(64 * 1024 * 1024);
  });
});
