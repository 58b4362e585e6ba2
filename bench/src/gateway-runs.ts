import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { benchModels } from './fake-upstream/behaviours.ts';
import { sendCleanTraffic } from './load/clean-traffic.ts';
import { checkErrorModes } from './load/error-modes.ts';
import { soak } from './load/soak.ts';
import { steadyStreams } from './load/stream-client.ts';
import { measureThroughput } from './load/throughput.ts';
import { measureGateway, type SuiteContext } from './measure/gateway-suite.ts';
import { cleanCaller } from './measure/reconcile.ts';
import type { TargetReport } from './report/bench-report.ts';
import { summariseProfile, type ProfileSummary } from './report/profile-summary.ts';
import { startFloor } from './targets/floor.ts';
import { measureInTurns } from './interleaved-runs.ts';
import { gatewayCpu, probe, reconcileVariant, startVariant, type RunContext, type SwitchboardVariant } from './switchboard-variants.ts';
import { ensurePortkeyInstalled, startPortkey } from './targets/portkey.ts';
import { startTraceSink } from './targets/trace-sink.ts';
import { chatTarget, type NativeVendor } from './targets/native-targets.ts';
import type { SwitchboardTarget } from './targets/switchboard.ts';
import { chatBody, type Target } from './targets/target.ts';

const allPhases: SuiteContext['phases'] = new Set(['memory', 'latency', 'paced', 'throughput', 'slow', 'stall']);
const throughputOnly: SuiteContext['phases'] = new Set(['throughput']);

/** A response-cache rule over the bench models; `maxBytes` 1 stores nothing (every request a miss). */
export function cacheRule(maxBytes?: number): string {
  return JSON.stringify([{ model: 'bench-*', ttl: 3600, hit_ratio: 0.1, ...(maxBytes ? { max_bytes: maxBytes } : {}) }]);
}

/**
 * The request limits' and budgets' settings: new-api's per-user model request limit on, and the bench
 * token's own RPM, TPM and concurrency limits and a daily budget set, all far above the load so none
 * refuses (limits/, budgets/). The `switchboard-limits` row's, and the one-file scripts' `--limits`.
 */
export const limitsAndBudgetOn = {
  extraOptions: {
    ModelRequestRateLimitEnabled: 'true',
    ModelRequestRateLimitCount: '2000000000',
    ModelRequestRateLimitSuccessCount: '2000000000',
  },
  tokenColumns: {
    rpm_limit: 2_000_000_000,
    tpm_limit: 1_000_000_000_000,
    concurrency_limit: 1_000_000,
    budget_quota: 1_000_000_000_000,
    budget_period: 'day',
  },
} as const;

/** A one-file script's variants of the gateway it measures: the options, token columns and environment each sets. */
const scriptVariants: Record<
  string,
  { labelSuffix: string; extraOptions?: Record<string, string>; tokenColumns?: Record<string, number | string>; env?: Record<string, string> }
> = {
  '--cache-hit': { labelSuffix: ', every request a response-cache hit', extraOptions: { ResponseCacheRules: cacheRule() } },
  '--cache-miss': { labelSuffix: ', every request a response-cache miss', extraOptions: { ResponseCacheRules: cacheRule(1) } },
  '--limits': { labelSuffix: ', request limits and budget on', ...limitsAndBudgetOn },
  '--logging-off': { labelSuffix: ', consume logging off', extraOptions: { LogConsumeEnabled: 'false' } },
  '--journal-off': { labelSuffix: ', crash journal off', env: { QUOTA_JOURNAL_DIR: 'off' } },
  '--quiet-log': { labelSuffix: ', LOG_LEVEL=warn', env: { LOG_LEVEL: 'warn' } },
};

/**
 * What a one-file script's variant flag (`--cache-hit`, `--cache-miss`, `--limits`, `--logging-off`, `--journal-off`,
 * `--quiet-log`; at most one) sets on the gateway it measures, and the words its rows' labels gain:
 * the same settings as the `npm run bench` rows of those names, so each feature's cost can be read in
 * instructions or bytes, which other tenants of the machine cannot move.
 */
export function scriptVariant(options: ReadonlyMap<string, string>): {
  labelSuffix: string;
  extraOptions: Record<string, string>;
  tokenColumns: Record<string, number | string>;
  env: Record<string, string>;
} {
  const chosen = Object.keys(scriptVariants).filter((flag) => options.has(flag));
  if (chosen.length > 1) throw new Error(`${chosen.join(' and ')} measure one thing each: pass one`);
  const variant = chosen[0] === undefined ? { labelSuffix: '' } : scriptVariants[chosen[0]]!;
  return { labelSuffix: variant.labelSuffix, extraOptions: variant.extraOptions ?? {}, tokenColumns: variant.tokenColumns ?? {}, env: variant.env ?? {} };
}

/** Runs the gateways one after another; each is started fresh, measured, stopped. Returns the profile, if asked. */
export async function runGatewayTargets(context: RunContext): Promise<ProfileSummary | undefined> {
  const { options, runDir, fake, progress } = context;
  const wanted = (id: string) => options.only.length === 0 || options.only.includes(id);
  const everyPhase = options.throughputOnly ? throughputOnly : allPhases;
  const suite = (phases = everyPhase): SuiteContext => ({ direct: fake.target, upstreamPid: fake.pid, durations: options.durations, phases, progress });
  if (wanted('portkey')) await ensurePortkeyInstalled(join(context.benchRoot, '.peer'));
  const traceSink = wanted('switchboard-tracing') ? await startTraceSink() : undefined;
  if (traceSink) context.cleanups.push(() => traceSink.close());

  // Measured in turns with the Switchboard rows below when they are (--interleave): started here, kept running.
  let floorInTurns: { target: Target; report: TargetReport } | undefined;
  if (wanted('floor') && options.interleave > 1) {
    const report: TargetReport = { id: 'floor', label: 'floor (node:http + undici)', kind: 'floor' };
    await measured(
      context,
      report,
      async () => {
        const target = await startFloor({ runDir, upstreamOrigin: fake.origin, cpus: gatewayCpu, eventLoopMonitor: !options.throughputOnly });
        floorInTurns = { target, report };
        return target;
      },
      async (target) => {
        // Idle memory from the cold process; its throughput is taken in the turns.
        report.measurements = await measureGateway(target, suite(new Set()));
      },
      { keepRunning: true },
    );
  } else if (wanted('floor')) {
    await measured(
      context,
      { id: 'floor', label: 'floor (node:http + undici)', kind: 'floor' },
      () => startFloor({ runDir, upstreamOrigin: fake.origin, cpus: gatewayCpu, eventLoopMonitor: !options.throughputOnly }),
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
    // The process log's cost: no access line per request (LOG_LEVEL=warn), as an operator who ships
    // access logs from a proxy in front would run it.
    {
      id: 'switchboard-quietlog',
      label: 'Switchboard, SQLite, LOG_LEVEL=warn',
      postgres: false,
      extraOptions: {},
      env: { LOG_LEVEL: 'warn' },
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
    {
      id: 'switchboard-limits',
      label: 'Switchboard, SQLite, request limits and budget on',
      postgres: false,
      ...limitsAndBudgetOn,
      soak: false,
      comparison: true,
    },
  ];
  // The response cache's cost (issue 40). `cache-miss`: a rule covers the bench models but stores no answer
  // (max_bytes 1), so every request is looked up, keyed, captured and relayed, a miss. `cache-hit`: the same
  // rule storing, so every request after the first is answered from memory without an upstream call. Hits are
  // billed at the rule's ratio with no upstream usage, so that row is not reconciled against the fake's tally.
  switchboards.push(
    {
      id: 'switchboard-cache-miss',
      label: 'Switchboard, SQLite, response cache on, every request a miss',
      postgres: false,
      extraOptions: { ResponseCacheRules: cacheRule(1) },
      soak: false,
      comparison: true,
    },
    {
      id: 'switchboard-cache-hit',
      label: 'Switchboard, SQLite, response cache on, every request a hit',
      postgres: false,
      extraOptions: { ResponseCacheRules: cacheRule() },
      soak: false,
      comparison: true,
      reconciles: false,
    },
  );
  // The native same-format paths (issue 35): an Anthropic caller at /v1/messages on a Claude channel and a
  // Gemini caller at generateContent on a Gemini channel, answered with the vendor's bytes. The fake answers
  // them non-stream only, so --streams (instant streams in the turns) leaves them out.
  if (!options.streams) {
    const nativeRows: Array<{ vendor: NativeVendor; label: string }> = [
      { vendor: 'claude', label: 'Switchboard, SQLite, native Claude path (/v1/messages)' },
      { vendor: 'gemini', label: 'Switchboard, SQLite, native Gemini path (generateContent)' },
    ];
    for (const { vendor, label } of nativeRows)
      switchboards.push({ id: `switchboard-native-${vendor}`, label, postgres: false, extraOptions: {}, soak: false, comparison: true, native: vendor });
  }
  // Every core (issue 20): two worker processes behind one primary on both cores against the one-process
  // row. The fake upstream and the load generator still share CPU 1, so this rig under-reports the gain
  // a machine with spare cores would show; CPU per request sums the primary and both workers.
  switchboards.push({
    id: 'switchboard-workers',
    label: 'Switchboard, SQLite, WORKERS=2 on both cores',
    postgres: false,
    extraOptions: {},
    env: { WORKERS: '2' },
    cpus: '0,1',
    soak: false,
    comparison: true,
  });
  // Tracing's cost: every request traced (request, attempt and billing spans) and exported over
  // OTLP/HTTP to a local sink that discards them. The queue is sized so that no span is dropped at
  // full load: a dropped span would cost less than an exported one and flatter the figure.
  if (traceSink) {
    switchboards.push({
      id: 'switchboard-tracing',
      label: 'Switchboard, SQLite, OpenTelemetry tracing on',
      postgres: false,
      extraOptions: {},
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: traceSink.origin, OTEL_BSP_MAX_QUEUE_SIZE: '65536', OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048' },
      soak: false,
      comparison: true,
    });
  }
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
  // Rows compared in turns (--interleave): all started together, the throughput phase taken round-robin.
  if (options.interleave > 1) {
    try {
      await measureInTurns(
        context,
        switchboards.filter((variant) => wanted(variant.id)),
        options.interleave,
        floorInTurns && floorInTurns.report.failed === undefined ? floorInTurns : undefined,
      );
    } finally {
      await floorInTurns?.target.process?.stop();
    }
  }
  for (const variant of switchboards) {
    if (!wanted(variant.id) || options.interleave > 1) continue;
    // The comparison variants answer one question each (CPU per request): throughput only.
    const phases: SuiteContext['phases'] = variant.comparison ? throughputOnly : everyPhase;
    await measuredSwitchboard(context, variant, async (target, report) => {
      report.measurements = await measureGateway(target, suite(phases));
      progress('clean traffic for the exact reconciliation (every request read to its end)');
      const clean = await sendCleanTraffic(chatTarget(target, target.seeded.cleanApiKey), cleanCaller);
      if (clean.failed > 0) progress(`  ${clean.failed} of ${clean.requests} clean requests failed`);
      if (variant.id === 'switchboard-tracing' && traceSink)
        progress(`  trace sink so far: ${traceSink.received.spans} spans in ${traceSink.received.requests} exports`);
      if (variant.comparison || options.throughputOnly) return;
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
  { keepRunning = false }: { keepRunning?: boolean } = {},
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
    // A failed start or measurement stops it; one kept for later turns is stopped by whoever keeps it.
    if (!keepRunning || report.failed !== undefined) await target?.process?.stop();
  }
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
      target = await startVariant(context, variant);
      return target;
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
  await reconcileVariant(context, variant, target, report);
}

/**
 * Switchboard (SQLite) under --cpu-prof, with non-stream load then paced streams (with --streams,
 * instant streams only); the profile is summarised.
 */
async function profileSwitchboard(context: RunContext): Promise<ProfileSummary | undefined> {
  const profileDir = join(context.runDir, 'profile');
  const cacheHit = context.options.profileCacheHit;
  let summary: ProfileSummary | undefined;
  await measuredSwitchboard(
    context,
    {
      id: 'switchboard-profiled',
      label: cacheHit ? 'Switchboard, SQLite, response-cache hits under --cpu-prof' : 'Switchboard, SQLite, under --cpu-prof',
      postgres: false,
      extraOptions: cacheHit ? { ResponseCacheRules: cacheRule() } : {},
      // Hits are billed at the rule's ratio with no upstream usage: nothing to reconcile with the fake's tally.
      reconciles: !cacheHit,
      nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
      fromSource: true,
    },
    async (target) => {
      const streams = context.options.streams;
      context.progress(
        streams
          ? 'profiling: instant streams c=50'
          : cacheHit
            ? 'profiling: non-stream response-cache hits c=50'
            : 'profiling: non-stream c=50, then 500 paced streams',
      );
      await measureThroughput(target, chatBody(benchModels.instant, streams), {
        connections: 50,
        durationSeconds: 10,
        warmupSeconds: 2,
        upstreamPid: context.fake.pid,
      });
      if (!streams && !cacheHit) await steadyStreams(target, chatBody(benchModels.paced, true), 500, 6000);
    },
  );
  const file = readdirSync(profileDir, { withFileTypes: true }).find((entry) => entry.name.endsWith('.cpuprofile'));
  if (file) summary = summariseProfile(join(profileDir, file.name));
  return summary;
}
