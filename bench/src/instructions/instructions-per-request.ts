/**
 * Instructions per request under callgrind: the gateway's user-space work per non-stream request as a
 * count, which other tenants of the machine cannot move (CPU time per request moved by ±40 % between
 * rounds of one run on the shared two-core machine). It leaves out what the kernel does for the
 * process (loopback TCP, file writes): compare builds with it, not with the floor's CPU budget.
 *
 *   npm run bench:instructions -w @switchboard/bench -- [--requests=1500] [--runs=3] [--concurrency=8] [--baseline=<checkout>] [--cache-hit | --cache-miss | --limits | --logging-off | --journal-off | --quiet-log]
 *   BENCH_NODE_FLAGS="--no-memory-reducer" adds Node flags to the gateways (not the floor).
 *
 * Each target (the floor, this checkout's Switchboard on SQLite, a `--baseline` checkout's) runs under
 * `valgrind --tool=callgrind` with instrumentation off until warmed up (2,000 requests); then, `runs`
 * times, the counters are zeroed, instrumentation switched on for `requests` requests and off, and the
 * dump's total divided by the requests. V8 optimises in the background and collects garbage when it
 * will, so runs still differ (by up to a quarter, bench/README.md): the table gives every run and the lowest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { scriptVariant } from '../gateway-runs.ts';
import { startFakeUpstream, startFloor } from '../targets/floor.ts';
import { startSwitchboard } from '../targets/switchboard.ts';
import type { Target } from '../targets/target.ts';
import { sendChatRequests } from '../load/chat-requests.ts';
import { stopAll } from '../platform/processes.ts';
import { scriptOptions } from '../platform/script-options.ts';
import { measuredCheckouts, newResultsFolder } from '../platform/results-folder.ts';

const run = promisify(execFile);
const options = scriptOptions(process.argv.slice(2));
const requests = Number(options.get('--requests') ?? 1500);
const runs = Number(options.get('--runs') ?? 3);
const concurrency = Number(options.get('--concurrency') ?? 8);
const variant = scriptVariant(options);
const warmupRequests = 2000;
// Valgrind runs the program 5 to 50 times slower: starting, migrating and every answer take longer.
const startTimeoutMs = 600_000;
const requestTimeoutMs = 120_000;

const runDir = newResultsFolder('instructions');

/** Where a target's valgrind makes the pipes vgdb sends its commands through. */
const vgdbPrefix = (id: string) => join(runDir, `${id}-vgdb`);

/** callgrind with instrumentation off from the start (a fast start), its dumps named by target. */
const callgrind = (id: string): string[] => [
  'valgrind',
  '--tool=callgrind',
  '--instr-atstart=no',
  // V8 writes machine code into memory it then runs: valgrind must watch all of it for changes.
  '--smc-check=all-non-file',
  `--vgdb-prefix=${vgdbPrefix(id)}`,
  `--callgrind-out-file=${join(runDir, `${id}.callgrind`)}`,
];

/** `count` chat requests at the run's concurrency; throws unless every one answered 200. */
const send = (target: Target, count: number) => sendChatRequests(target, count, { concurrency, timeoutMs: requestTimeoutMs });

/** The instructions of the newest dump of `id`'s callgrind (its `totals:` line). */
function newestTotal(id: string): number {
  const dumps = readdirSync(runDir)
    .filter((name) => name.startsWith(`${id}.callgrind.`))
    .sort((a, b) => Number(a.split('.').pop()) - Number(b.split('.').pop()));
  const newest = dumps.at(-1);
  if (!newest) throw new Error(`no callgrind dump for ${id}`);
  const line = readFileSync(join(runDir, newest), 'utf8')
    .split('\n')
    .find((text) => text.startsWith('totals:'));
  return Number(line?.split(/\s+/)[1] ?? Number.NaN);
}

/** Instructions per request of each measured run of a target already warmed up. */
async function measure(id: string, target: Target, pid: number, host: string | undefined): Promise<number[]> {
  // callgrind's monitor commands through vgdb; a command that does not reach the target fails the run.
  // valgrind names its pipes after the target's HOST variable (the gateway's is the address it binds):
  // vgdb finds them only with the same value.
  const env = { ...process.env };
  if (host === undefined) delete env.HOST;
  else env.HOST = host;
  const control = (...command: string[]) => run('vgdb', [`--vgdb-prefix=${vgdbPrefix(id)}`, `--pid=${pid}`, ...command], { env });
  const perRequest: number[] = [];
  for (let index = 0; index < runs; index += 1) {
    await control('zero');
    await control('instrumentation', 'on');
    await send(target, requests);
    await control('instrumentation', 'off');
    await control('dump');
    perRequest.push(newestTotal(id) / requests);
  }
  return perRequest;
}

const rows: Array<{ label: string; perRequest: number[] }> = [];
const progress = (message: string) => console.log(`[instructions] ${message}`);
try {
  const fake = await startFakeUpstream({ runDir, cpus: '1' });
  const floor = await startFloor({ runDir, upstreamOrigin: fake.origin, cpus: '0', eventLoopMonitor: false, wrapper: callgrind('floor'), startTimeoutMs });
  const targets: Array<{ id: string; label: string; target: Target; pid: number; host: string | undefined }> = [
    { id: 'floor', label: 'floor (node:http + undici)', target: floor, pid: floor.process?.pid ?? 0, host: process.env.HOST },
  ];
  for (const gateway of measuredCheckouts(options.get('--baseline'))) {
    progress(`starting ${gateway.label} under callgrind`);
    const started = await startSwitchboard({
      id: gateway.id,
      label: gateway.label,
      repoRoot: gateway.root,
      runDir,
      upstreamOrigin: fake.origin,
      cpus: '0',
      logLevel: 'info',
      eventLoopMonitor: false,
      extraOptions: variant.extraOptions,
      tokenColumns: variant.tokenColumns,
      env: variant.env,
      wrapper: callgrind(gateway.id),
      startTimeoutMs,
      // Flags to try beside the server's own (BENCH_NODE_FLAGS="--no-memory-reducer"), as bench:memory takes them.
      nodeFlags: process.env.BENCH_NODE_FLAGS?.split(' ').filter(Boolean) ?? [],
    });
    targets.push({
      id: gateway.id,
      label: `${gateway.label}${variant.labelSuffix}`,
      target: started,
      pid: started.process?.pid ?? 0,
      // startSwitchboard sets HOST to the address the gateway binds.
      host: '127.0.0.1',
    });
  }
  for (const { id, label, target, pid, host } of targets) {
    progress(`${label}: ${warmupRequests} requests to warm up`);
    await send(target, warmupRequests);
    progress(`${label}: ${runs} runs of ${requests} requests, instrumented`);
    rows.push({ label, perRequest: await measure(id, target, pid, host) });
  }
} finally {
  await stopAll();
}

const thousands = (value: number) => `${(value / 1000).toFixed(1)} k`;
const floorBest = Math.min(...(rows[0]?.perRequest ?? [Number.NaN]));
console.log(`\nInstructions per non-stream request (user space, every thread), ${requests} requests per run, c=${concurrency}; results in ${runDir}\n`);
console.log('| target | runs | lowest | × floor |');
console.log('|---|---|--:|--:|');
for (const row of rows) {
  const best = Math.min(...row.perRequest);
  console.log(`| ${row.label} | ${row.perRequest.map(thousands).join(', ')} | ${thousands(best)} | ${(best / floorBest).toFixed(2)} |`);
}
