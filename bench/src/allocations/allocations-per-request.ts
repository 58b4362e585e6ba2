/**
 * Bytes allocated per non-stream request, by whose code asked for them: the floor, this checkout's
 * Switchboard on SQLite and, with `--baseline`, another checkout's. V8's sampling heap profiler runs
 * over a window of requests after a warm-up, keeping objects that were collected meanwhile, so the
 * figure is everything a request allocated (what the scavenger then sweeps), not what survived.
 * Other tenants of the machine cannot move it as they move CPU time: compare builds with it.
 *
 *   npm run bench:allocations -w @switchboard/bench -- [--requests=5000] [--cache-hit | --cache-miss | --limits | --logging-off | --journal-off | --quiet-log] [--baseline=<checkout>] [--top=20]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scriptVariant } from '../gateway-runs.ts';
import { sendChatRequests } from '../load/chat-requests.ts';
import { connectInspector } from '../platform/inspector-client.ts';
import { freePort, stopAll } from '../platform/processes.ts';
import { scriptOptions } from '../platform/script-options.ts';
import { summariseAllocations, type AllocationSummary, type HeapProfileNode } from '../report/allocation-summary.ts';
import { startFakeUpstream, startFloor } from '../targets/floor.ts';
import { startSwitchboard } from '../targets/switchboard.ts';
import type { Target } from '../targets/target.ts';
import { measuredCheckouts, newResultsFolder } from '../platform/results-folder.ts';

const options = scriptOptions(process.argv.slice(2));
const requests = Number(options.get('--requests') ?? 5000);
const top = Number(options.get('--top') ?? 20);
const variant = scriptVariant(options);
const warmupRequests = 5000;
const concurrency = 32;
// One sample per this many bytes allocated, on average: small enough for a few hundred samples a request.
const samplingIntervalBytes = 256;

const runDir = newResultsFolder('allocations');
const progress = (message: string) => console.log(`[allocations] ${message}`);

/** The heap sampler over `requests` requests of a warmed-up target listening for the inspector on `port`. */
async function sampleAllocations(id: string, target: Target, port: number): Promise<AllocationSummary> {
  await sendChatRequests(target, warmupRequests, { concurrency });
  const inspector = await connectInspector(port);
  try {
    await inspector.call('HeapProfiler.enable');
    await inspector.call('HeapProfiler.startSampling', {
      samplingInterval: samplingIntervalBytes,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    await sendChatRequests(target, requests, { concurrency });
    const { profile } = await inspector.call<{ profile: { head: HeapProfileNode } }>('HeapProfiler.stopSampling');
    writeFileSync(join(runDir, `${id}.heapprofile`), JSON.stringify(profile));
    return summariseAllocations(profile.head, requests, top);
  } finally {
    inspector.close();
  }
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const rows: Array<{ label: string; summary: AllocationSummary }> = [];
try {
  const fake = await startFakeUpstream({ runDir, cpus: '1' });
  const floorPort = await freePort();
  const floor = await startFloor({ runDir, upstreamOrigin: fake.origin, cpus: '0', eventLoopMonitor: false, nodeFlags: [`--inspect=127.0.0.1:${floorPort}`] });
  progress('floor (node:http + undici)');
  rows.push({ label: 'floor (node:http + undici)', summary: await sampleAllocations('floor', floor, floorPort) });
  for (const gateway of measuredCheckouts(options.get('--baseline'))) {
    const port = await freePort();
    progress(gateway.label);
    const started = await startSwitchboard({
      id: gateway.id,
      label: gateway.label,
      repoRoot: gateway.root,
      runDir,
      upstreamOrigin: fake.origin,
      cpus: '0',
      logLevel: 'info',
      eventLoopMonitor: false,
      // From source, so the functions are named by their files and lines.
      fromSource: true,
      extraOptions: variant.extraOptions,
      tokenColumns: variant.tokenColumns,
      env: variant.env,
      nodeFlags: [`--inspect=127.0.0.1:${port}`],
    });
    rows.push({
      label: `${gateway.label}${variant.labelSuffix}`,
      summary: await sampleAllocations(gateway.id, started, port),
    });
  }
} finally {
  await stopAll();
}

console.log(
  `\nBytes allocated per non-stream request (V8's heap sampler, collected objects kept), ${requests} requests at c=${concurrency}; profiles in ${runDir}\n`,
);
const owners = [...new Set(rows.flatMap((row) => row.summary.byOwner.map((entry) => entry.name)))];
console.log(`| target | all | ${owners.join(' | ')} |`);
console.log(`|---|--:|${owners.map(() => '--:').join('|')}|`);
for (const { label, summary } of rows) {
  const byOwner = new Map(summary.byOwner.map((entry) => [entry.name, entry.bytesPerRequest]));
  console.log(`| ${label} | ${kilobytes(summary.bytesPerRequest)} | ${owners.map((owner) => kilobytes(byOwner.get(owner) ?? 0)).join(' | ')} |`);
}
for (const { label, summary } of rows.slice(1)) {
  console.log(`\n${label}: Switchboard's functions by the bytes they allocate (Node's frames under them included)\n`);
  console.log('| function | where | bytes per request |');
  console.log('|---|---|--:|');
  for (const entry of summary.switchboardFunctions) console.log(`| ${entry.name} | ${entry.where} | ${entry.bytesPerRequest} |`);
}
