/**
 * Flags the server's Node process is started with (`npm start`, the bench, the Docker image's
 * NODE_OPTIONS). A young generation of 8 MB semi-spaces instead of Node 24's larger default keeps
 * each scavenge short: under relay load the default's pauses reached 20–35 ms, which every request
 * and stream in flight waits out; with 8 MB they stay under about 9 ms, at the same CPU per request
 * (measured with `npm run bench`). `--expose-gc` lets the process give a burst's memory back once
 * the burst is over (platform/memory-return.ts).
 */
export const serverNodeFlags: readonly string[] = ['--max-semi-space-size=8', '--expose-gc'];
