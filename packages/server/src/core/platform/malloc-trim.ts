import { createRequire } from 'node:module';

/** Gives the C allocator's freed memory back to the system; resolves to whether any was released. */
export type TrimMalloc = () => Promise<boolean>;

/** A C function as koffi binds it: `async` runs the call on a worker thread and answers through the callback. */
export interface ForeignFunction {
  async(...parameters: [...number[], (error: unknown, result: number) => void]): void;
}
/** The one koffi call used here: a C function bound by its prototype. */
interface ForeignLibrary {
  func(prototype: string): ForeignFunction;
}
export type LoadForeignLibrary = (path: string) => ForeignLibrary;

/** What binding the trim found: the function, or why the trim is skipped. */
export type MallocTrimBinding = { readonly trim: TrimMalloc } | { readonly skipped: string };

/**
 * glibc's `malloc_trim(0)`, bound through koffi (docs/decisions/0007-malloc-trim-through-koffi.md).
 * After a stream burst each worker kept 10–25 MiB of freed chunks in glibc's main arena, between live
 * ones (the 64 KiB socket reads and the bodies are below the mmap threshold): `free()` gives back only
 * the arena's top, `malloc_trim` also the free pages in the middle. Node does not expose it.
 *
 * The call runs on a worker thread, not the event loop's: glibc walks every free chunk of the arena
 * and gives back its pages one range at a time (3–169 ms of wall time after the bench's bursts, at
 * load average 7–15), and the compaction before it has already paused the loop.
 *
 * Skipped (the process keeps what it has, as before) where there is no glibc: macOS and Windows are
 * not even asked, and on Linux a C library without `libc.so.6` or without `malloc_trim` (musl, as in
 * Alpine images), or koffi missing (an install without its prebuilt binary), is a skip, not an error.
 */
export function bindGlibcMallocTrim(loadLibrary: () => LoadForeignLibrary = loadKoffi, platform: NodeJS.Platform = process.platform): MallocTrimBinding {
  if (platform !== 'linux') return { skipped: `no glibc on ${platform}` };
  try {
    const mallocTrim = loadLibrary()('libc.so.6').func('int malloc_trim(size_t pad)');
    const trim = () =>
      new Promise<boolean>((resolve, reject) => {
        mallocTrim.async(0, (error, released) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(released === 1)));
      });
    return { trim };
  } catch (error) {
    return { skipped: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A trim bound on its first call, not before: koffi and its native part cost a process about 1 MiB
 * once loaded (0.8 MiB of them its binary's pages), so a process that never had a burst to give back never loads it, and the relay's path
 * never touches it (the memory return calls it once per quiet spell after growth). `onSkipped` hears
 * once why there is no trim.
 */
export function lazyMallocTrim(onSkipped: (reason: string) => void, bind: () => MallocTrimBinding = bindGlibcMallocTrim): TrimMalloc {
  let binding: MallocTrimBinding | undefined;
  return () => {
    if (!binding) {
      binding = bind();
      if ('skipped' in binding) onSkipped(binding.skipped);
    }
    return 'trim' in binding ? binding.trim() : Promise.resolve(false);
  };
}

/** koffi's `load`, required synchronously: the memory return's check is synchronous. */
function loadKoffi(): LoadForeignLibrary {
  const koffi = createRequire(import.meta.url)('koffi') as { load: LoadForeignLibrary };
  return (path) => koffi.load(path);
}
