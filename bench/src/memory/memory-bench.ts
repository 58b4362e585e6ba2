import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool, request } from 'undici';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { streamWave } from '../load/stream-client.ts';
import { binaryBytes, privateBytes, processTree, pssBytes, RssSampler, rssBytes, treePssBytes, treeRssBytes } from '../platform/proc-stats.ts';
import { stopAll, stopChildrenOnSignals } from '../platform/processes.ts';
import { startFakeUpstream } from '../targets/floor.ts';
import { startSwitchboard } from '../targets/switchboard.ts';
import { chatBody } from '../targets/target.ts';
import { memoryRows, memoryTargets, type MemoryFigures } from './memory-targets.ts';

/**
 * `npm run bench:memory`: the issue's three memory targets on the default process tree (`WORKERS=auto`,
 * a primary and one worker per core) on SQLite, measured from outside through /proc:
 *  1. idle RSS of the tree, and RSS, PSS and private memory per process (private: RSS without the
 *     shared Node binary pages);
 *  2. 100 simultaneous chat requests each carrying a 5 MB base64 image: peak RSS above idle, and how
 *     long the tree takes to come back near its warm level (at rest after one image request and one
 *     stream: what a used gateway keeps for good, measured before the burst);
 *  3. a burst of 2,000 paced streams, then how long the tree takes to come back near its RSS before it.
 * Prints one row per target with ✓ or ✗ and writes bench/results/memory-<time>/memory.json; exits
 * non-zero when a target is missed. The figures move with the machine's other load: run it quietly.
 */
const benchRoot = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = join(benchRoot, '..');
const runDir = join(benchRoot, 'results', `memory-${new Date().toISOString().replace(/[:.]/g, '-')}`);
mkdirSync(runDir, { recursive: true });
const mib = (bytes: number) => bytes / 1024 / 1024;
const progress = (message: string) => console.error(`[memory] ${message}`);
stopChildrenOnSignals(stopAll);

/** A chat request with one picture: `imageBytes` of base64 in a data URL, as chat front ends send photos. */
function imageRequestBody(imageBytes: number): Buffer {
  const base64 = Buffer.alloc(Math.ceil((imageBytes * 3) / 4), 7)
    .toString('base64')
    .slice(0, imageBytes);
  return Buffer.from(
    JSON.stringify({
      model: benchModels.slow,
      max_tokens: 64,
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this picture?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
          ],
        },
      ],
    }),
  );
}

/** Waits until the tree's RSS has not moved by more than 1 MiB for two seconds (start-up settled). */
async function settledRss(pid: number): Promise<number> {
  let previous = treeRssBytes(pid);
  for (let still = 0; still < 4;) {
    await sleep(500);
    const now = treeRssBytes(pid);
    still = Math.abs(now - previous) <= 1024 * 1024 ? still + 1 : 0;
    previous = now;
  }
  return previous;
}

/** How long after a burst the tree's RSS takes to come back within the target of `level`; undefined if not within twice the bound. */
async function backNear(pid: number, level: number): Promise<{ withinMs?: number; rssBytes: number }> {
  const ended = Date.now();
  for (;;) {
    const now = treeRssBytes(pid);
    const elapsed = Date.now() - ended;
    if (now - level <= memoryTargets.backNearIdleBytes) return { withinMs: elapsed, rssBytes: now };
    if (elapsed > memoryTargets.backWithinMs * 2) return { rssBytes: now };
    await sleep(250);
  }
}

const fake = await startFakeUpstream({ runDir, cpus: '1' });
const gateway = await startSwitchboard({
  id: 'switchboard-memory',
  label: 'Switchboard, default tree',
  repoRoot,
  runDir,
  upstreamOrigin: fake.origin,
  cpus: '0,1',
  logLevel: 'info', // the tree's readiness is its info line "… with N worker processes"
  env: { WORKERS: 'auto', ...(process.env.BENCH_MALLOC ? { MALLOC_MMAP_THRESHOLD_: process.env.BENCH_MALLOC } : {}) },
});
const pid = gateway.process!.pid;
try {
  // The port opens with the first worker; the tree is complete once every core has its worker.
  for (const deadline = Date.now() + 60_000; processTree(pid).length < 3 && Date.now() < deadline;) await sleep(200);
  await sleep(3000);
  const figures: MemoryFigures = { idleRssBytes: await settledRss(pid), idlePssBytes: treePssBytes(pid), privateBytesPerProcess: {} };
  for (const member of processTree(pid)) {
    const name = member === pid ? 'primary' : `worker ${member}`;
    figures.privateBytesPerProcess[name] = privateBytes(member);
    progress(
      `idle ${name}: RSS ${mib(rssBytes(member)).toFixed(0)} MiB (Node binary pages ${mib(binaryBytes(member)).toFixed(0)} MiB), PSS ${mib(pssBytes(member)).toFixed(0)} MiB, private ${mib(privateBytes(member)).toFixed(0)} MiB`,
    );
  }
  progress(`idle tree: RSS ${mib(figures.idleRssBytes).toFixed(0)} MiB, PSS ${mib(figures.idlePssBytes).toFixed(0)} MiB`);

  // Warm-up: one image request and one stream, so the image burst is not charged with what the first
  // request of any kind sets up for good (the primary's SQLite writer thread, caches, compiled code).
  const warmBody = imageRequestBody(memoryTargets.imageBodyBytes);
  const warmAnswer = await request(`${gateway.origin}${gateway.path}`, {
    method: 'POST',
    headers: { ...gateway.headers, 'content-type': 'application/json' },
    body: warmBody,
  });
  await warmAnswer.body.dump();
  await streamWave(gateway, chatBody(benchModels.paced, true), 1, 0);
  figures.warmRssBytes = await settledRss(pid);
  progress(`warm (after one image request and one stream): RSS ${mib(figures.warmRssBytes).toFixed(0)} MiB`);

  // 2. Large bodies, all at once.
  const imageBytes = memoryTargets.imageBodyBytes;
  const body = imageRequestBody(imageBytes);
  const pool = new Pool(gateway.origin, { connections: memoryTargets.imageRequests });
  const before = treeRssBytes(pid);
  const sampler = new RssSampler(pid);
  sampler.start(50);
  const statuses = await Promise.all(
    Array.from({ length: memoryTargets.imageRequests }, async () => {
      const answer = await pool.request({
        method: 'POST',
        path: gateway.path,
        headers: { ...gateway.headers, 'content-type': 'application/json' },
        body,
      });
      await answer.body.dump();
      return answer.statusCode;
    }),
  );
  sampler.stop();
  await pool.close();
  figures.imageRequestsOk = statuses.filter((status) => status === 200).length;
  figures.imageBodiesBytes = body.length * memoryTargets.imageRequests;
  figures.imagePeakAboveIdleBytes = sampler.peak - before;
  progress(
    `${memoryTargets.imageRequests} × ${mib(body.length).toFixed(1)} MiB: ${figures.imageRequestsOk} answered 200, peak ${mib(sampler.peak).toFixed(0)} MiB, ${mib(figures.imagePeakAboveIdleBytes).toFixed(0)} MiB above idle (${(figures.imagePeakAboveIdleBytes / figures.imageBodiesBytes).toFixed(2)}× the bodies)`,
  );

  const imageBack = await backNear(pid, figures.warmRssBytes);
  figures.afterImagesRssBytes = imageBack.rssBytes;
  if (imageBack.withinMs !== undefined) figures.imagesBackWithinMs = imageBack.withinMs;
  progress(
    imageBack.withinMs === undefined
      ? `after the image requests: still ${mib(imageBack.rssBytes - figures.warmRssBytes).toFixed(0)} MiB above the warm level after ${memoryTargets.backWithinMs * 2} ms`
      : `after the image requests: back within ${mib(memoryTargets.backNearIdleBytes)} MiB of the warm level after ${(imageBack.withinMs / 1000).toFixed(1)} s`,
  );

  // Which process keeps what (private memory: the shared Node binary pages left out).
  progress(
    `after the image requests, private per process: ${processTree(pid)
      .map((member) => `${member === pid ? 'primary' : `worker ${member}`} ${mib(privateBytes(member)).toFixed(0)} MiB`)
      .join(', ')}`,
  );

  // 3. A stream burst, then the way back.
  const beforeBurst = await settledRss(pid);
  figures.beforeBurstRssBytes = beforeBurst;
  const wave = await streamWave(gateway, chatBody(benchModels.paced, true), memoryTargets.burstStreams, 2000);
  figures.burstIncomplete = wave.incomplete;
  figures.burstPeakRssBytes = wave.rssPeakBytes ?? 0;
  const burstBack = await backNear(pid, beforeBurst);
  figures.afterBurstRssBytes = burstBack.rssBytes;
  if (burstBack.withinMs !== undefined) figures.backWithinMs = burstBack.withinMs;
  if (wave.firstError) progress(`first incomplete stream: ${wave.firstError}`);
  progress(
    `${memoryTargets.burstStreams} streams (${wave.incomplete} incomplete): before ${mib(beforeBurst).toFixed(0)} MiB, peak ${mib(figures.burstPeakRssBytes).toFixed(0)} MiB, ` +
      (figures.backWithinMs === undefined
        ? `still ${mib(figures.afterBurstRssBytes! - beforeBurst).toFixed(0)} MiB above after ${memoryTargets.backWithinMs * 2} ms`
        : `back within ${memoryTargets.backNearIdleBytes / 1024 / 1024} MiB after ${(figures.backWithinMs / 1000).toFixed(1)} s`),
  );
  figures.primaryRssBytes = rssBytes(pid);
  writeFileSync(join(runDir, 'memory.json'), JSON.stringify(figures, null, 2));
  const rows = memoryRows(figures);
  for (const row of rows) progress(`${row.met ? '✓' : '✗'} ${row.figure}: ${row.measured} (target ${row.target})`);
  process.exitCode = rows.every((row) => row.met) ? 0 : 1;
} finally {
  await stopAll();
  await gateway.cleanup();
}
