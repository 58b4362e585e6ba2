import type { BenchReport, TargetReport } from './bench-report.ts';
import { budgetChecks } from './budgets.ts';
import { added } from './markdown-values.ts';

const dash = '–';
const fixed = (value: number | undefined, digits = 2) => (value === undefined || !Number.isFinite(value) ? dash : value.toFixed(digits));
const thousands = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? dash : Math.round(value).toLocaleString('en-US'));
const mb = (bytes: number | undefined) => (bytes === undefined ? dash : (bytes / 1024 / 1024).toFixed(1));

type Row = [string, (target: TargetReport) => string];

const rows: Row[] = [
  ['Non-stream req/s, c=32 (instant upstream)', (t) => thousands(t.measurements?.throughput?.rps)],
  ['Gateway CPU µs per non-stream request', (t) => fixed(t.measurements?.throughput?.cpuMicrosPerRequest, 0)],
  [
    'Latency under that load p50 / p99, ms',
    (t) => (t.measurements?.throughput ? `${t.measurements.throughput.latencyP50Ms} / ${t.measurements.throughput.latencyP99Ms}` : dash),
  ],
  [
    'Added latency c=1, non-stream p50 / p99, ms',
    (t) =>
      t.kind === 'direct'
        ? 'ref.'
        : `${fixed(added(t.measurements?.latency, 'total', 'p50'), 3)} / ${fixed(added(t.measurements?.latency, 'total', 'p99'), 3)}`,
  ],
  [
    'Added time to first chunk c=1 (instant stream) p50 / p99, ms',
    (t) =>
      t.kind === 'direct'
        ? 'ref.'
        : `${fixed(added(t.measurements?.firstChunk, 'first', 'p50'), 3)} / ${fixed(added(t.measurements?.firstChunk, 'first', 'p99'), 3)}`,
  ],
  ['Added time to first chunk, paced c=10, p50 / p99, ms', (t) => pacedDelta(t, 'ttft')],
  ['Added gap between chunks, paced c=10, p50 / p99, ms', (t) => pacedDelta(t, 'gap')],
  [
    'Instant streams/s c=32 · gateway CPU µs per stream',
    (t) =>
      t.measurements?.streamThroughput
        ? `${thousands(t.measurements.streamThroughput.rps)} · ${fixed(t.measurements.streamThroughput.cpuMicrosPerRequest, 0)}`
        : dash,
  ],
  [
    '50 ms upstream, c=256: req/s · p50 / p99 ms',
    (t) =>
      t.measurements?.slowUpstream
        ? `${thousands(t.measurements.slowUpstream.rps)} · ${t.measurements.slowUpstream.latencyP50Ms} / ${t.measurements.slowUpstream.latencyP99Ms}`
        : dash,
  ],
  [
    'Concurrent paced streams held, no frame lost (levels tried)',
    (t) =>
      t.measurements?.waves.length
        ? `${thousands(t.measurements.maxStreamsHeld)} (${t.measurements.waves.map((w) => `${w.concurrency}${w.lostFrames || w.incomplete ? '✗' : '✓'}`).join(' ')})`
        : dash,
  ],
  ['TTFT p50 / p99 ms in the 1,000-stream wave', (t) => wave1000(t, (w) => `${fixed(w.ttft.p50, 1)} / ${fixed(w.ttft.p99, 1)}`)],
  ['Idle RSS, MB', (t) => mb(t.measurements?.idleRssBytes)],
  ['Idle private memory (RSS without shared file pages), MB', (t) => mb(t.measurements?.idlePrivateBytes)],
  ['RSS 15 s after the stream waves (up to 2,000 streams), MB', (t) => mb(t.measurements?.afterStreamsRssBytes)],
  [
    'Memory per concurrent stream (1,000-stream wave), KB',
    (t) => wave1000(t, (w) => (w.bytesPerStream === undefined ? dash : (w.bytesPerStream / 1024).toFixed(0))),
  ],
  ['Peak RSS under non-stream load, MB', (t) => mb(t.measurements?.throughput?.rssPeakBytes)],
  [
    'Event-loop stall beyond pacing under load: max / p99 gap, ms (load req/s)',
    (t) =>
      t.measurements?.stall
        ? `${fixed(t.measurements.stall.maxStallMs, 1)} / ${fixed(t.measurements.stall.p99StallMs, 1)} (${thousands(t.measurements.stall.load.rps)})`
        : dash,
  ],
  [
    'Event-loop stall measured inside the gateway under that load (monitorEventLoopDelay), max ms',
    (t) => (t.measurements?.stall?.inProcessMaxStallMs === undefined ? dash : fixed(t.measurements.stall.inProcessMaxStallMs, 1)),
  ],
  ['Soak: RSS start → end MB, growth MiB/min', (t) => (t.soak ? `${t.soak.rssStartMb} → ${t.soak.rssEndMb}, ${t.soak.growthMbPerMinute}` : dash)],
  ['Quota charged = usage emitted × price (logs · user · token)', (t) => reconciliation(t)],
  ['Upstream core share during the c=32 run (rig limit near 1.0)', (t) => fixed(t.measurements?.throughput?.upstreamCores, 2)],
  ["Other tenants' load before the phases, cores", (t) => fixed(t.measurements?.otherTenantCores, 2)],
];

function pacedDelta(target: TargetReport, part: 'ttft' | 'gap'): string {
  const paced = target.measurements?.paced;
  if (!paced) return dash;
  if (target.kind === 'direct') return `ref. ${fixed(paced.target[part].p50, 2)} / ${fixed(paced.target[part].p99, 2)}`;
  return `${fixed(paced.target[part].p50 - paced.direct[part].p50, 2)} / ${fixed(paced.target[part].p99 - paced.direct[part].p99, 2)}`;
}

function wave1000(target: TargetReport, show: (wave: NonNullable<TargetReport['measurements']>['waves'][number]) => string): string {
  const wave = target.measurements?.waves.find((w) => w.concurrency === 1000) ?? target.measurements?.waves.at(-1);
  return wave ? show(wave) : dash;
}

function reconciliation(target: TargetReport): string {
  const r = target.reconciliation?.clean;
  if (!r) return dash;
  const mark = r.exact ? '✓ exact' : '✗ MISMATCH';
  return `${mark}: ${thousands(r.expectedQuota)} expected · ${thousands(r.logQuota)} · ${thousands(r.userUsedQuota)} · ${thousands(r.tokenUsedQuota)} (${thousands(r.emittedRequests)} req.)`;
}

function retention(report: BenchReport): string {
  const withLogs = report.targets.find((t) => t.id === 'switchboard-sqlite')?.measurements?.throughput;
  const withoutLogs = report.targets.find((t) => t.id === 'switchboard-nolog')?.measurements?.throughput;
  if (!withLogs || !withoutLogs) return '';
  return `Database on (SQLite, logging and quota writes) keeps **${((100 * withLogs.rps) / withoutLogs.rps).toFixed(1)} %** of the logging-off throughput (${thousands(withLogs.rps)} vs ${thousands(withoutLogs.rps)} req/s; CPU ${fixed(withLogs.cpuMicrosPerRequest, 0)} vs ${fixed(withoutLogs.cpuMicrosPerRequest, 0)} µs/req).\n`;
}

export function renderMarkdown(report: BenchReport): string {
  const targets = report.targets.filter((t) => t.measurements);
  const lines: string[] = [];
  lines.push(`# Switchboard relay benchmark — ${report.startedAt}`, '');
  lines.push(
    `Node ${report.node} · commit ${report.commit} · ${report.machine.cpus} × ${report.machine.model} · ${report.placement} · ${Math.round(report.seconds)} s${report.options.soak ? ' · 10-minute soak' : ''}${report.options.quick ? ' · QUICK (smoke) durations' : ''}`,
    '',
  );
  const busiest = Math.max(0, ...targets.map((t) => t.measurements?.otherTenantCores ?? 0));
  if (busiest > 0.3) {
    lines.push(
      `> ⚠ Other tenants of this machine kept up to ${busiest.toFixed(2)} cores busy during the run: wall-clock figures (req/s, latencies, stalls, streams held) are bounded by that contention. CPU µs per request and the ratios between gateways are the figures to read; rerun on a quiet machine for the rest.`,
      '',
    );
  }
  lines.push(`| figure | ${targets.map((t) => t.label).join(' | ')} |`);
  lines.push(`|---|${targets.map(() => '--:').join('|')}|`);
  for (const [label, cell] of rows) lines.push(`| ${label} | ${targets.map(cell).join(' | ')} |`);
  lines.push('');
  const kept = retention(report);
  if (kept) lines.push(kept);
  const checks = budgetChecks(report);
  if (checks.length > 0) {
    lines.push('## Budgets, Switchboard', '', '| budget | measured | |', '|---|---|---|');
    for (const check of checks) lines.push(`| ${check.budget} | ${check.measured} | ${check.reportOnly ? 'report' : check.met ? '✓' : '✗'} |`);
    lines.push('');
  }
  for (const target of report.targets) {
    if (target.skipped) lines.push(`- ${target.label}: skipped (${target.skipped})`);
    if (target.failed) lines.push(`- ${target.label}: stopped early (${target.failed})`);
  }
  const withErrors = report.targets.filter((t) => t.errorModes?.length);
  if (withErrors.length > 0) {
    lines.push('', '## Failure paths', '', `| case | ${withErrors.map((t) => t.label).join(' | ')} |`, `|---|${withErrors.map(() => '---').join('|')}|`);
    for (const [index, mode] of (withErrors[0]?.errorModes ?? []).entries()) {
      lines.push(
        `| ${mode.mode} | ${withErrors
          .map((t) => {
            const m = t.errorModes?.[index];
            return m
              ? `${m.outcome} in ${m.ms.toFixed(0)} ms${m.upstreamReleased === undefined ? '' : m.upstreamReleased ? ', upstream released' : ', upstream NOT released'}`
              : dash;
          })
          .join(' | ')} |`,
      );
    }
  }
  const reconciled = report.targets.filter((t) => t.reconciliation);
  if (reconciled.length > 0) {
    lines.push('', '## Reconciliation detail', '');
    for (const target of reconciled) {
      const { clean, run, errorAccount } = target.reconciliation as NonNullable<TargetReport['reconciliation']>;
      const describe = (name: string, r: typeof clean) => {
        const off = r.byUsage.filter((entry) => entry.emitted !== entry.logged);
        return `${name}: ${thousands(r.emittedRequests)} requests completed upstream (${thousands(r.emittedPromptTokens)} prompt + ${thousands(r.emittedCompletionTokens)} completion tokens) → ${thousands(r.expectedQuota)} quota expected; logs ${thousands(r.logRows)} rows / ${thousands(r.logQuota)}, users.used_quota ${thousands(r.userUsedQuota)}, balance down ${thousands(r.userQuotaSpent)}, tokens.used_quota ${thousands(r.tokenUsedQuota)}.${off.length ? ` Usage shapes emitted/logged: ${off.map((entry) => `${entry.usage} ${entry.emitted}/${entry.logged}`).join(', ')}; ${r.locallyCountedRows} rows billed by local count (caller left mid-stream).` : ''}`;
      };
      lines.push(
        `- ${target.label}. ${describe('Clean account', clean)} ${describe('Whole-run account', run)} Held and never released: ${thousands(run.userQuotaSpent - run.userUsedQuota)}. Failure-path account: balance down ${thousands(errorAccount.spent)}, charged ${thousands(errorAccount.used)}, logged ${thousands(errorAccount.logged)}${errorAccount.balanced ? ' (balanced)' : ' (UNBALANCED: holds neither settled nor refunded)'}.`,
      );
    }
  }
  if (report.profile) {
    lines.push('', `## CPU profile of Switchboard (SQLite) under load — ${report.profile.file}`, '', '| area | self % of busy |', '|---|--:|');
    for (const area of report.profile.byArea.slice(0, 15)) lines.push(`| ${area.name} | ${area.selfPercent} |`);
    lines.push('', '| function | where | self % |', '|---|---|--:|');
    for (const entry of report.profile.topFunctions) lines.push(`| ${entry.name} | ${entry.where} | ${entry.selfPercent} |`);
    lines.push('', '| Switchboard function (inclusive) | where | % of busy |', '|---|---|--:|');
    for (const entry of report.profile.switchboardInclusive) lines.push(`| ${entry.name} | ${entry.where} | ${entry.selfPercent} |`);
    lines.push('', '| whose code (nearest owned frame above each sample) | % of busy |', '|---|--:|');
    for (const owner of report.profile.byOwner) lines.push(`| ${owner.name} | ${owner.selfPercent} |`);
  }
  lines.push('', methodNote);
  return lines.join('\n');
}

const methodNote = `Method: every gateway runs in its own process pinned to CPU 0 (taskset); the fake upstream, the load
generator (autocannon) and the undici streaming client share CPU 1. CPU per request is the gateway's own
utime+stime from /proc over the measured window divided by completed requests. "Added" figures are
client-observed: the gateway's percentile minus the fake's own, in interleaved rounds (c=1) or back to back
(paced c=10). Paced streams: ${'64'} chunks 20 ms apart, usage in the last, then [DONE]. A stream wave counts as
held when every stream returns 200, every frame and [DONE]. The stall figure is the longest gap between
frames of 16 paced probe streams beyond the upstream's 20 ms, while non-stream load runs at 60 % of the
gateway's measured throughput; the floor's value is the rig's own jitter. Switchboard and the floor also
report the longest event-loop delay they measured in themselves over that phase (monitorEventLoopDelay
every 5 ms; Switchboard's /metrics), which is the figure the stall budget reads. The floor (plain node:http
+ undici, the answer piped back) runs with Switchboard's Node flags. Throughput requests are issue 41's shape
(one user message, max_tokens 32) on 32 keep-alive connections. Quota is reconciled after a clean
stop: the fake's tally of usage it emitted × bench pricing (ratio 1, completion ratio 2) against logs, users
and tokens.`;
