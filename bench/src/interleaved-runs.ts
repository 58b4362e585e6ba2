import { benchModels } from './fake-upstream/behaviours.ts';
import { sendCleanTraffic } from './load/clean-traffic.ts';
import { measureThroughput, type ThroughputResult } from './load/throughput.ts';
import { cleanCaller } from './measure/reconcile.ts';
import { medianBy } from './measure/stats.ts';
import { waitForQuiet } from './platform/quiet.ts';
import type { TargetReport } from './report/bench-report.ts';
import { probe, reconcileVariant, startVariant, type RunContext, type SwitchboardVariant } from './switchboard-variants.ts';
import type { SwitchboardTarget } from './targets/switchboard.ts';
import { chatBody } from './targets/target.ts';

const instant = chatBody(benchModels.instant, false);

/**
 * The Switchboard rows measured in turns: every variant is started at once (idle except in its turn),
 * then `rounds` rounds of the non-stream throughput phase go round them, so each row meets the
 * machine as the others do; a row keeps its median round. On a shared machine, where other tenants
 * move CPU per request by tens of percent from one minute to the next, one-after-another runs cannot
 * show a 5 % difference (the journal's budget); turns can. Each row is then stopped cleanly and
 * reconciled as in a normal run.
 */
export async function measureInTurns(context: RunContext, variants: readonly SwitchboardVariant[], rounds: number): Promise<void> {
  const { progress, fake, options } = context;
  const running: Array<{ variant: SwitchboardVariant; target: SwitchboardTarget; report: TargetReport; results: ThroughputResult[] }> = [];
  try {
    for (const variant of variants) {
      const report: TargetReport = { id: variant.id, label: variant.label, kind: 'switchboard' };
      context.targets.push(report);
      progress(`— ${variant.label} (measured in turns)`);
      try {
        const target = await startVariant(context, variant);
        running.push({ variant, target, report, results: [] });
        const refused = await probe(target);
        if (refused) throw new Error(`the first request failed: ${refused}`);
      } catch (error) {
        report.failed = error instanceof Error ? error.message : String(error);
        progress(`${variant.label} stopped early: ${report.failed}`);
      }
    }
    const measuring = running.filter((entry) => entry.report.failed === undefined);
    const ownPids = [fake.pid, ...measuring.flatMap((entry) => (entry.target.process?.pid ? [entry.target.process.pid] : []))];
    const otherTenantCores = await waitForQuiet(ownPids, options.durations.quietWaitMs);
    for (let round = 1; round <= rounds; round += 1) {
      for (const entry of measuring) {
        const result = await measureThroughput(entry.target, instant, {
          connections: 50,
          durationSeconds: options.durations.throughputSeconds,
          warmupSeconds: 1,
          upstreamPid: fake.pid,
        });
        entry.results.push(result);
        progress(`  round ${round}, ${entry.variant.label}: ${Math.round(result.rps)} req/s, ${result.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/req`);
      }
    }
    for (const entry of measuring) {
      const throughput = medianBy(entry.results, (result) => result.cpuMicrosPerRequest);
      entry.report.measurements = { otherTenantCores, waves: [], maxStreamsHeld: 0, ...(throughput ? { throughput } : {}) };
      const figures = entry.results.map((result) => result.cpuMicrosPerRequest?.toFixed(0) ?? '–').join(', ');
      progress(`${entry.variant.label}: median ${throughput?.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/req (rounds: ${figures})`);
      const clean = await sendCleanTraffic({ ...entry.target, headers: { authorization: `Bearer ${entry.target.seeded.cleanApiKey}` } }, cleanCaller);
      if (clean.failed > 0) progress(`  ${clean.failed} of ${clean.requests} clean requests failed`);
    }
  } finally {
    for (const entry of running) await entry.target.process?.stop();
  }
  // Stopped with SIGTERM: a clean stop flushes every pending write; then each row is reconciled.
  for (const entry of running) await reconcileVariant(context, entry.variant, entry.target, entry.report);
}
