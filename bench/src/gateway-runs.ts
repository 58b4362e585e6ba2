import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { benchModels } from './fake-upstream/behaviours.ts';
import { readFakeStats } from './fake-upstream/fake-stats.ts';
import { sendCleanTraffic } from './load/clean-traffic.ts';
import { checkErrorModes } from './load/error-modes.ts';
import { soak } from './load/soak.ts';
import { steadyStreams } from './load/stream-client.ts';
import { measureThroughput } from './load/throughput.ts';
import { measureGateway, type SuiteContext } from './measure/gateway-suite.ts';
import { cleanCaller, reconcile } from './measure/reconcile.ts';
import type { TargetReport } from './report/bench-report.ts';
import { summariseProfile, type ProfileSummary } from './report/profile-summary.ts';
import type { RunOptions } from './run-options.ts';
import { startFloor } from './targets/floor.ts';
import { ensurePortkeyInstalled, startPortkey } from './targets/portkey.ts';
import { startSwitchboard, type SwitchboardTarget } from './targets/switchboard.ts';
import { startingQuota } from './targets/switchboard-seed.ts';
import { chatBody, type Target } from './targets/target.ts';

export interface RunContext {
  options: RunOptions;
  repoRoot: string;
  benchRoot: string;
  runDir: string;
  fake: { target: Target; pid: number; origin: string };
  targets: TargetReport[];
  cleanups: Array<() => Promise<void>>;
  progress: (message: string) => void;
}

const gatewayCpu = '0';
const allPhases: SuiteContext['phases'] = new Set(['memory', 'latency', 'paced', 'throughput', 'slow', 'stall']);

/** One request through the gateway before measuring: a relay that does not answer 200 is reported, not timed. */
async function probe(target: Target): Promise<string | undefined> {
  try {
    const answer = await request(`${target.origin}${target.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: chatBody(benchModels.instant, false),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await answer.body.text();
    return answer.statusCode === 200 && text.includes('"usage"') ? undefined : `HTTP ${answer.statusCode}: ${text.slice(0, 300)}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Runs the gateways one after another; each is started fresh, measured, stopped. Returns the profile, if asked. */
export async function runGatewayTargets(context: RunContext): Promise<ProfileSummary | undefined> {
  const { options, runDir, fake, progress } = context;
  const wanted = (id: string) => options.only.length === 0 || options.only.includes(id);
  const suite = (phases = allPhases): SuiteContext => ({ direct: fake.target, upstreamPid: fake.pid, durations: options.durations, phases, progress });
  if (wanted('portkey')) await ensurePortkeyInstalled(join(context.benchRoot, '.peer'));

  if (wanted('floor')) {
    await measured(
      context,
      { id: 'floor', label: 'floor (Fastify + undici)', kind: 'floor' },
      () => startFloor({ runDir, upstreamOrigin: fake.origin, cpus: gatewayCpu }),
      async (target, report) => {
        report.measurements = await measureGateway(target, suite());
      },
    );
  }
  const switchboards: SwitchboardVariant[] = [
    { id: 'switchboard-sqlite', label: 'Switchboard, SQLite', postgres: false, extraOptions: {}, soak: true },
    { id: 'switchboard-postgres', label: 'Switchboard, PostgreSQL', postgres: true, extraOptions: {}, soak: false },
    {
      id: 'switchboard-nolog',
      label: 'Switchboard, SQLite, logging off',
      postgres: false,
      extraOptions: { LogConsumeEnabled: 'false' },
      soak: false,
      comparison: true,
    },
    // The crash journal's cost: the same gateway with the journal off (QUOTA_JOURNAL_DIR=off).
    {
      id: 'switchboard-nojournal',
      label: 'Switchboard, SQLite, journal off',
      postgres: false,
      extraOptions: {},
      env: { QUOTA_JOURNAL_DIR: 'off' },
      soak: false,
      comparison: true,
    },
  ];
  if (options.baselineRoot) {
    switchboards.push({
      id: 'switchboard-baseline',
      label: 'Switchboard baseline (SQLite)',
      postgres: false,
      extraOptions: {},
      soak: false,
      comparison: true,
      repoRoot: options.baselineRoot,
    });
  }
  for (const variant of switchboards) {
    if (!wanted(variant.id)) continue;
    // The comparison variants answer one question each (CPU per request): throughput only.
    const phases: SuiteContext['phases'] = variant.comparison ? new Set(['throughput']) : allPhases;
    await measuredSwitchboard(context, variant, async (target, report) => {
      report.measurements = await measureGateway(target, suite(phases));
      progress('clean traffic for the exact reconciliation (every request read to its end)');
      const clean = await sendCleanTraffic({ ...target, headers: { authorization: `Bearer ${target.seeded.cleanApiKey}` } }, cleanCaller);
      if (clean.failed > 0) progress(`  ${clean.failed} of ${clean.requests} clean requests failed`);
      if (variant.comparison) return;
      progress('failure paths');
      report.errorModes = await checkErrorModes(target, fake.origin, { authorization: `Bearer ${target.seeded.errorApiKey}` });
      if (variant.soak) {
        const rate = Math.min(2000, Math.round(((report.measurements.throughput?.rps ?? 1000) * 0.3) / 100) * 100);
        progress(`soak: ${options.durations.soakSeconds} s of ${rate} req/s plus 200 paced streams`);
        report.soak = await soak(target, options.durations.soakSeconds, rate, 200, fake.pid);
      }
    });
  }
  if (wanted('portkey')) {
    await measured(
      context,
      { id: 'portkey', label: 'Portkey 1.15.2 (peer)', kind: 'peer' },
      () => startPortkey({ peerDir: join(context.benchRoot, '.peer'), runDir, upstreamOrigin: fake.origin, cpus: gatewayCpu }),
      async (target, report) => {
        report.measurements = await measureGateway(target, suite());
      },
    );
  }
  if (options.profile) return profileSwitchboard(context);
  return undefined;
}

async function measured(
  context: RunContext,
  report: TargetReport,
  start: () => Promise<Target>,
  body: (target: Target, report: TargetReport) => Promise<void>,
): Promise<void> {
  context.targets.push(report);
  context.progress(`— ${report.label}`);
  let target: Target | undefined;
  try {
    target = await start();
    const refused = await probe(target);
    if (refused) throw new Error(`the first request failed: ${refused}`);
    await body(target, report);
  } catch (error) {
    report.failed = error instanceof Error ? error.message : String(error);
    context.progress(`${report.label} stopped early: ${report.failed}`);
  } finally {
    await target?.process?.stop();
  }
}

interface SwitchboardVariant {
  id: string;
  label: string;
  postgres: boolean;
  extraOptions: Record<string, string>;
  env?: Record<string, string>;
  soak?: boolean;
  /** Measured only to compare one figure with the main row (throughput phase only). */
  comparison?: boolean;
  /** Another checkout to run instead of this one (the baseline). */
  repoRoot?: string;
  nodeFlags?: string[];
}

async function measuredSwitchboard(
  context: RunContext,
  variant: SwitchboardVariant,
  body: (target: SwitchboardTarget, report: TargetReport) => Promise<void>,
): Promise<void> {
  const report: TargetReport = { id: variant.id, label: variant.label, kind: 'switchboard' };
  let target: SwitchboardTarget | undefined;
  await measured(
    context,
    report,
    async () => {
      const started = await startSwitchboard({
        id: variant.id,
        label: variant.label,
        repoRoot: variant.repoRoot ?? context.repoRoot,
        runDir: context.runDir,
        upstreamOrigin: context.fake.origin,
        postgresServerUrl: variant.postgres ? context.options.postgresUrl : undefined,
        cpus: gatewayCpu,
        logLevel: 'info',
        extraOptions: variant.extraOptions,
        ...(variant.env ? { env: variant.env } : {}),
        nodeFlags: variant.nodeFlags ?? [],
      });
      target = started;
      context.cleanups.push(() => started.cleanup());
      return started;
    },
    (started, measuredReport) => body(started as SwitchboardTarget, measuredReport),
  );
  if (!target) {
    if (variant.postgres && report.failed?.includes('PostgreSQL')) {
      report.skipped = report.failed;
      delete report.failed;
    }
    return;
  }
  // measured() stopped it with SIGTERM: a clean stop flushes every pending log and quota write.
  try {
    const stats = await readFakeStats(context.fake.origin);
    report.reconciliation = await reconcile(target.sqlDsn, target.sqlitePath, target.seeded, stats, startingQuota, variant.id !== 'switchboard-nolog');
    const { clean, run } = report.reconciliation;
    context.progress(
      `reconciliation, clean account: ${clean.exact ? 'exact' : 'MISMATCH'} (expected ${clean.expectedQuota}, logs ${clean.logQuota}, user ${clean.userUsedQuota}); whole run: holds left ${run.userQuotaSpent - run.userUsedQuota}`,
    );
  } catch (error) {
    report.failed = `${report.failed ? `${report.failed}; ` : ''}reconciliation failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** Switchboard (SQLite) under --cpu-prof, with non-stream load then paced streams; the profile is summarised. */
async function profileSwitchboard(context: RunContext): Promise<ProfileSummary | undefined> {
  const profileDir = join(context.runDir, 'profile');
  let summary: ProfileSummary | undefined;
  await measuredSwitchboard(
    context,
    {
      id: 'switchboard-profiled',
      label: 'Switchboard, SQLite, under --cpu-prof',
      postgres: false,
      extraOptions: {},
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    },
    async (target) => {
      context.progress('profiling: non-stream c=50, then 500 paced streams');
      await measureThroughput(target, chatBody(benchModels.instant, false), {
        connections: 50,
        durationSeconds: 10,
        warmupSeconds: 2,
        upstreamPid: context.fake.pid,
      });
      await steadyStreams(target, chatBody(benchModels.paced, true), 500, 6000);
    },
  );
  const file = readdirSync(profileDir, { withFileTypes: true }).find((entry) => entry.name.endsWith('.cpuprofile'));
  if (file) summary = summariseProfile(join(profileDir, file.name));
  return summary;
}
