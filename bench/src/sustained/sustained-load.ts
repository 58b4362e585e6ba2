import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { measureThroughput, throughputConnections, type ThroughputResult } from '../load/throughput.ts';
import { medianBy } from '../measure/stats.ts';
import { stopAll, stopChildrenOnSignals } from '../platform/processes.ts';
import { newResultsFolder, repoRoot } from '../platform/results-folder.ts';
import { scriptOptions } from '../platform/script-options.ts';
import { startFakeUpstream } from '../targets/floor.ts';
import { startSwitchboard } from '../targets/switchboard.ts';
import { chatBody } from '../targets/target.ts';

/**
 * `npm run bench:sustained`: Switchboard (SQLite, one process on CPU 0) under closed-loop non-stream
 * load for minutes, measured in windows of a few seconds: requests per second, CPU per request and
 * latency in each. A whole run's phases last seconds; what only sustained load shows does not appear
 * there: the roll-up jobs working through a table that grows by half a million logs a minute or more
 * (their steps once walked every log and the gateway fell to 30 requests a second after two minutes),
 * or CPU per request that climbs as the tables grow. The summary compares the worst window with the median
 * one. A window in which the jobs add up their logs keeps less (2026-11-29: about half while they ran
 * every minute, 82 % since they run every 15 s on SQLite); the run fails (exit 1) when a window after
 * the first minute keeps less than a quarter of the median's throughput, a gateway that stopped
 * keeping up.
 *
 * `--stalls` turns the gateway's metrics on and adds each window's longest event-loop delay (its
 * monitor wakes the process every 5 ms, a cost `npm start` does not pay, hence not by default).
 *
 *   npm run bench:sustained -w @switchboard/bench -- [--minutes=3] [--window=5] [--stalls]
 */
const options = scriptOptions(process.argv.slice(2));
const minutes = Number(options.get('--minutes') ?? 3);
const windowSeconds = Number(options.get('--window') ?? 5);
const stalls = options.has('--stalls');
const runDir = newResultsFolder('sustained');
const progress = (message: string) => console.error(`[sustained] ${message}`);
stopChildrenOnSignals(stopAll);

interface Window {
  readonly endsAtSeconds: number;
  readonly result: ThroughputResult;
  /** The longest event-loop delay in the window (with --stalls). */
  readonly stallMs: number | undefined;
}

try {
  const fake = await startFakeUpstream({ runDir, cpus: '1' });
  const gateway = await startSwitchboard({
    id: 'switchboard',
    label: 'Switchboard, SQLite',
    repoRoot,
    runDir,
    upstreamOrigin: fake.origin,
    cpus: '0',
    logLevel: 'info',
    eventLoopMonitor: stalls,
    extraOptions: {},
  });
  const body = chatBody(benchModels.instant, false);
  const windows: Window[] = [];
  const startedAt = Date.now();
  while (Date.now() - startedAt < minutes * 60_000) {
    const result = await measureThroughput(gateway, body, {
      connections: throughputConnections,
      durationSeconds: windowSeconds,
      warmupSeconds: 0,
      upstreamPid: fake.pid,
    });
    const endsAtSeconds = Math.round((Date.now() - startedAt) / 1000);
    const stallMs = await gateway.eventLoopMaxDelayMs?.();
    windows.push({ endsAtSeconds, result, stallMs });
    progress(
      `${endsAtSeconds} s: ${Math.round(result.rps)} req/s, ${result.cpuMicrosPerRequest?.toFixed(1) ?? '–'} µs CPU/req, p99 ${result.latencyP99Ms} ms, max ${result.latencyMaxMs} ms${stallMs === undefined ? '' : `, event loop held up to ${stallMs.toFixed(0)} ms`}`,
    );
  }
  await gateway.process?.stop();
  // The database and the access log grow by about half a gigabyte and 150 MB a minute: not kept.
  for (const file of [gateway.sqlitePath, `${gateway.sqlitePath}-wal`, `${gateway.sqlitePath}-shm`, join(runDir, 'switchboard.log')])
    rmSync(file, { force: true });

  const afterFirstMinute = windows.filter((window) => window.endsAtSeconds > 60);
  const median = medianBy(windows, (window) => window.result.rps);
  const worst = afterFirstMinute.reduce<Window | undefined>((low, window) => (!low || window.result.rps < low.result.rps ? window : low), undefined);
  const lines = [
    `| window ends | req/s | µs CPU per request | p99 ms | max ms |${stalls ? ' event loop held, ms |' : ''}`,
    `|--:|--:|--:|--:|--:|${stalls ? '--:|' : ''}`,
    ...windows.map(
      ({ endsAtSeconds, result, stallMs }) =>
        `| ${endsAtSeconds} s | ${Math.round(result.rps)} | ${result.cpuMicrosPerRequest?.toFixed(1) ?? '–'} | ${result.latencyP99Ms} | ${result.latencyMaxMs} |${stalls ? ` ${stallMs?.toFixed(0) ?? '–'} |` : ''}`,
    ),
    '',
    `Median window ${Math.round(median?.result.rps ?? 0)} req/s, ${median?.result.cpuMicrosPerRequest?.toFixed(1) ?? '–'} µs CPU per request; worst after the first minute ${Math.round(worst?.result.rps ?? 0)} req/s (${worst?.endsAtSeconds ?? '–'} s).`,
  ];
  writeFileSync(join(runDir, 'sustained.md'), `${lines.join('\n')}\n`);
  console.log(lines.join('\n'));
  const collapsed = median !== undefined && worst !== undefined && worst.result.rps < median.result.rps / 4;
  if (collapsed) progress('✗ a window after the first minute kept less than a quarter of the median throughput');
  process.exitCode = collapsed ? 1 : 0;
} finally {
  await stopAll();
}
