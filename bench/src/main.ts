import { execFileSync } from 'node:child_process';
import { copyFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { runGatewayTargets } from './gateway-runs.ts';
import { measureGateway } from './measure/gateway-suite.ts';
import { stopAll, stopChildrenOnSignals } from './platform/processes.ts';
import { benchRoot, newResultsFolder, repoRoot } from './platform/results-folder.ts';
import type { BenchReport, TargetReport } from './report/bench-report.ts';
import type { ProfileSummary } from './report/profile-summary.ts';
import { renderMarkdown } from './report/markdown.ts';
import { benchFailures } from './report/verdict.ts';
import { parseRunOptions } from './run-options.ts';
import { renderDataSetComparison } from './realistic/data-set-report.ts';
import { runDataSetComparison } from './realistic/data-set-comparison.ts';
import { pageBudgetMs, runLogPages } from './realistic/log-pages.ts';
import { startFakeUpstream } from './targets/floor.ts';

/**
 * `npm run bench`: the fake upstream, the floor, Switchboard on SQLite and PostgreSQL, and the peer
 * gateway, measured in one run on this machine; the table goes to stdout and bench/results/.
 */
const options = parseRunOptions(process.argv.slice(2), process.env);
const startedAt = new Date();
const runDir = newResultsFolder('run', startedAt);
const cleanups: Array<() => Promise<void>> = [];
const progress = (message: string) => console.error(`[${((Date.now() - startedAt.getTime()) / 1000).toFixed(0).padStart(4)} s] ${message}`);

if (options.logPages) {
  // Database queries only: no gateway, upstream or pinning.
  const figures = await runLogPages(options, progress);
  const over = figures.filter((figure) => figure.medianMs > pageBudgetMs);
  writeFileSync(join(runDir, 'log-pages.json'), JSON.stringify({ scale: options.realisticScale, budgetMs: pageBudgetMs, figures }, null, 2));
  progress(`${figures.length} pages measured at scale ${options.realisticScale}; ${join(runDir, 'log-pages.json')}`);
  for (const figure of over) progress(`✗ ${figure.engine} ${figure.scenario} page ${figure.page}: ${figure.medianMs.toFixed(1)} ms > ${pageBudgetMs} ms`);
  process.exit(over.length > 0 ? 1 : 0);
}

// The harness is the load generator: it and the fake upstream share CPU 1, gateways get CPU 0.
try {
  execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
} catch {
  progress('taskset is missing: processes are not pinned, figures will be noisier');
}
stopChildrenOnSignals(async () => {
  await stopAll();
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
});

function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

const targets: TargetReport[] = [];
let profile: ProfileSummary | undefined;
let dataSets: BenchReport['dataSets'];
let exitCode = 0;
try {
  progress(`results go to ${runDir}`);
  const fake = await startFakeUpstream({ runDir, cpus: '1' });
  if (options.realistic) {
    // The data set comparison replaces the gateway rows; its rows take their own direct reference (c=1 rounds).
    dataSets = await runDataSetComparison({ options, repoRoot, benchRoot, runDir, fake, targets, cleanups, progress });
  } else {
    progress('direct to the fake upstream (the rig reference)');
    const direct = await measureGateway(fake.target, {
      direct: fake.target,
      upstreamPid: fake.pid,
      durations: options.durations,
      phases: new Set(options.throughputOnly ? ['throughput'] : ['memory', 'throughput', 'slow']),
      progress,
    });
    targets.push({ id: 'direct', label: fake.target.label, kind: 'direct', measurements: direct });
    profile = await runGatewayTargets({ options, repoRoot, benchRoot, runDir, fake, targets, cleanups, progress });
  }
} catch (error) {
  exitCode = 1;
  progress(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
} finally {
  await stopAll();
  for (const cleanup of cleanups) await cleanup().catch(() => undefined);
}

const finishedAt = new Date();
const report: BenchReport = {
  startedAt: startedAt.toISOString(),
  finishedAt: finishedAt.toISOString(),
  seconds: (finishedAt.getTime() - startedAt.getTime()) / 1000,
  node: process.version,
  commit: commit(),
  machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown' },
  placement: 'gateway pinned to CPU 0; fake upstream and load generator on CPU 1',
  options: {
    soak: options.soak,
    quick: options.quick,
    profile: options.profile,
    only: options.only,
    ...(options.realistic ? { realisticScale: options.realisticScale } : {}),
  },
  targets,
};
if (profile) report.profile = profile;
if (dataSets) report.dataSets = dataSets;
const markdown = dataSets ? renderDataSetComparison(dataSets) : renderMarkdown(report);
writeFileSync(join(runDir, 'bench.json'), JSON.stringify(report, null, 2));
writeFileSync(join(runDir, 'bench.md'), markdown);
copyFileSync(join(runDir, 'bench.json'), join(benchRoot, 'results', 'latest.json'));
copyFileSync(join(runDir, 'bench.md'), join(benchRoot, 'results', 'latest.md'));
console.log(markdown);
progress(`done in ${Math.round(report.seconds)} s; ${join(runDir, 'bench.md')}`);
const failures = dataSets ? dataSets.rows.flatMap((row) => (row.failed ? [`${row.label}: ${row.failed}`] : [])) : benchFailures(report);
for (const failure of failures) progress(`✗ ${failure}`);
process.exit(failures.length > 0 ? 1 : exitCode);
