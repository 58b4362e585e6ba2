import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { throughputConnections } from '../load/throughput.ts';
import { contextSwitches, cpuMicros, processTree, threadCpuMicros } from '../platform/proc-stats.ts';
import { stopAll, stopChildrenOnSignals } from '../platform/processes.ts';
import { startFakeUpstream } from '../targets/floor.ts';
import { startSwitchboard, type SwitchboardTarget } from '../targets/switchboard.ts';
import { chatBody } from '../targets/target.ts';
import { medianTurn, perProcessRows, type TreeTurn } from './tree-turns.ts';
import { newResultsFolder, repoRoot } from '../platform/results-folder.ts';

/**
 * `npm run bench:workers-tax`: issue 41 item 4, what the default process tree costs per request beyond one
 * process. Two gateways on fresh SQLite files, both pinned to CPU 0 (the same core, as the issue's outside
 * measurement): `WORKERS=1` and `WORKERS=2` (a primary and two workers: what `auto` gives on this machine's
 * two cores). They are measured in turns, each turn a fixed number of non-stream chat requests over 32
 * keep-alive connections, and every process's CPU (utime + stime from /proc) is read before and after it:
 * the table gives each process's CPU per request (the primary, each worker) and the tree's, median turn.
 * The fake upstream and this load generator share CPU 1.
 *
 * `--requests=20000` per turn, `--turns=3`.
 */
const argument = (name: string, fallback: number) => Number(process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const requests = argument('requests', 20_000);
const turns = argument('turns', 3);
const runDir = newResultsFolder('workers-tax');
const progress = (message: string) => console.error(`[workers-tax] ${message}`);
stopChildrenOnSignals(stopAll);

const rows = [
  { id: 'workers-1', label: 'WORKERS=1', workers: '1' },
  { id: 'workers-2', label: 'WORKERS=2 (auto on 2 cores)', workers: '2' },
] as const;

/** Every process of the tree (and each one's threads by name) with the CPU each has used so far. */
function treeSnapshot(root: number): Array<{ pid: number; role: string; cpuMicros: number; switches: number; threads: Map<string, number> }> {
  const members = processTree(root);
  return members.map((pid, index) => ({
    pid,
    role: pid === root ? (members.length > 1 ? 'primary' : 'process') : `worker ${index}`,
    cpuMicros: cpuMicros(pid),
    switches: contextSwitches(pid),
    threads: threadCpuMicros(pid),
  }));
}

/** What each process (and thread) of the tree used between two snapshots. */
function used(before: ReturnType<typeof treeSnapshot>, after: ReturnType<typeof treeSnapshot>): TreeTurn['processes'] {
  return after.map((now) => {
    const then = before.find((each) => each.pid === now.pid);
    const threads = Object.fromEntries([...now.threads].map(([name, micros]) => [name, micros - (then?.threads.get(name) ?? 0)]));
    return { role: now.role, cpuMicros: now.cpuMicros - (then?.cpuMicros ?? 0), switches: now.switches - (then?.switches ?? 0), threads };
  });
}

/** One turn: `amount` requests, every process of the tree read before and after. */
async function turn(target: SwitchboardTarget, amount: number): Promise<TreeTurn> {
  const before = treeSnapshot(target.process!.pid);
  const started = performance.now();
  const result = await autocannon({
    url: `${target.origin}${target.path}`,
    method: 'POST',
    body: chatBody(benchModels.instant, false),
    headers: { 'content-type': 'application/json', ...target.headers },
    connections: throughputConnections,
    amount,
    timeout: 20,
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    completed: result['2xx'],
    failed: result.non2xx + result.errors + result.timeouts,
    seconds,
    processes: used(before, treeSnapshot(target.process!.pid)),
  };
}

/**
 * The tree's CPU while it serves nothing (timers, reports, the event-loop monitor), per second: on a
 * loaded machine a turn lasts long, and this rate times its length is part of its figure.
 */
async function idle(target: SwitchboardTarget, seconds: number): Promise<TreeTurn['processes']> {
  const before = treeSnapshot(target.process!.pid);
  await sleep(seconds * 1000);
  return used(before, treeSnapshot(target.process!.pid)).map((each) => ({
    role: each.role,
    cpuMicros: each.cpuMicros / seconds,
    switches: (each.switches ?? 0) / seconds,
    threads: Object.fromEntries(Object.entries(each.threads ?? {}).map(([name, micros]) => [name, micros / seconds])),
  }));
}

const fake = await startFakeUpstream({ runDir, cpus: '1' });
const targets: SwitchboardTarget[] = [];
try {
  for (const row of rows) {
    targets.push(
      await startSwitchboard({
        id: row.id,
        label: row.label,
        repoRoot,
        runDir,
        upstreamOrigin: fake.origin,
        cpus: '0',
        logLevel: 'info',
        // As `npm start` runs by default: no metrics (their event-loop monitor wakes every process every 5 ms).
        eventLoopMonitor: false,
        env: { WORKERS: row.workers },
      }),
    );
  }
  // Every worker serves once the readiness line is logged; a short warm-up compiles the hot paths.
  for (const target of targets) await turn(target, 2_000);
  await sleep(1_000);
  const idleSeconds = argument('idle-seconds', 10);
  const idleRates = [];
  for (const target of targets) idleRates.push(await idle(target, idleSeconds));
  for (const [index, rates] of idleRates.entries())
    progress(`${rows[index]!.label} idle: ${rates.map((each) => `${each.role} ${(each.cpuMicros / 1000).toFixed(2)} ms/s`).join(', ')}`);
  const measured = rows.map(() => [] as TreeTurn[]);
  for (let round = 0; round < turns; round += 1) {
    for (const [index, target] of targets.entries()) {
      const load = loadavg()[0]!.toFixed(1);
      const taken = await turn(target, requests);
      measured[index]!.push(taken);
      const tree = taken.processes.reduce((sum, each) => sum + each.cpuMicros, 0);
      progress(
        `round ${round + 1} ${rows[index]!.label}: ${(tree / taken.completed).toFixed(1)} µs/request (tree), ${(taken.completed / taken.seconds).toFixed(0)} requests/s, load ${load}`,
      );
    }
  }
  const report = rows.map((row, index) => ({ ...row, ...perProcessRows(medianTurn(measured[index]!)), turns: measured[index] }));
  writeFileSync(join(runDir, 'workers-tax.json'), JSON.stringify({ requests, turns, loadavg: loadavg(), idleSeconds, idleRates, report }, null, 2));
  console.log(`| gateway | process | CPU µs / request | context switches / request | idle CPU ms/s |\n|---|---|--:|--:|--:|`);
  for (const [index, row] of report.entries()) {
    for (const line of row.lines) {
      const idleRate =
        line.role === 'tree'
          ? idleRates[index]!.reduce((sum, each) => sum + each.cpuMicros, 0)
          : idleRates[index]!.find((each) => each.role === line.role)?.cpuMicros;
      const switches = line.switchesPerRequest === undefined ? '' : line.switchesPerRequest.toFixed(2);
      console.log(
        `| ${row.label} | ${line.role} | ${line.microsPerRequest.toFixed(1)} | ${switches} | ${idleRate === undefined ? '' : (idleRate / 1000).toFixed(1)} |`,
      );
    }
  }
  console.log(`\n| gateway | process | thread | CPU µs / request |\n|---|---|---|--:|`);
  for (const [index, row] of report.entries()) {
    const median = medianTurn(measured[index]!);
    for (const each of median.processes)
      for (const [name, micros] of Object.entries(each.threads ?? {}))
        if (micros > 0) console.log(`| ${row.label} | ${each.role} | ${name} | ${(micros / median.completed).toFixed(1)} |`);
  }
  const failed = report.some((row) => row.failed > 0);
  if (failed) progress('some requests failed: see the JSON');
  process.exitCode = failed ? 1 : 0;
} finally {
  await stopAll();
}
