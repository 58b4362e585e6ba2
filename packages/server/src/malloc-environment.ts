/**
 * glibc malloc settings for the server's processes (`npm start`, the bench, the Docker image's ENV),
 * set in the environment because glibc reads them once, when the process starts; the primary's
 * workers inherit them.
 *
 * MALLOC_MMAP_THRESHOLD_ fixed at glibc's own starting value, 128 KiB. By default glibc raises the
 * threshold to the size of the largest mapped block freed so far: after the first 5 MB request body
 * was freed, every later one came from the malloc arenas, whose free() gives back only the arena's
 * top, so after 100 requests with a 5 MB picture each the default tree stayed 190 MB above idle with
 * V8's heap already back at its idle size (measured with `npm run bench:memory`). Fixed, a block of
 * 128 KiB or more is always its own mapping and goes back to the system when freed. Smaller blocks
 * (the 64 KiB socket reads, ordinary request bodies) stay in the arenas as before, so a relay
 * request's allocations are unchanged.
 *
 * MALLOC_ARENA_MAX at 2 (the main arena and one more). By default glibc gives each thread that
 * allocates its own arena, up to eight per core: a gateway process has nine or more (V8's platform
 * threads, libuv's thread pool, the SQLite writer), and each keeps the pages its thread once touched.
 * Two took the idle default tree from 264 to 254 MB of RSS (npm run bench:memory); the main thread,
 * where the relay's allocations happen, keeps the main arena as before.
 */
export const serverMallocEnvironment: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_ARENA_MAX: '2' };

/** `environment` with the server's malloc settings added; a value the operator set keeps precedence. */
export function withServerMallocEnvironment(environment: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...serverMallocEnvironment, ...environment };
}
