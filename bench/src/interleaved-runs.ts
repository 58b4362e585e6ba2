import { benchModels } from './fake-upstream/behaviours.ts';
import { sendCleanTraffic } from './load/clean-traffic.ts';
import { measureThroughput, throughputConnections, type ThroughputResult } from './load/throughput.ts';
import { cleanCaller } from './measure/reconcile.ts';
import { medianBy } from './measure/stats.ts';
import { waitForQuiet } from './platform/quiet.ts';
import type { TargetReport } from './report/bench-report.ts';
import { probe, reconcileVariant, startVariant, type RunContext, type SwitchboardVariant } from './switchboard-variants.ts';
import { chatTarget } from './targets/native-targets.ts';
import type { SwitchboardTarget } from './targets/switchboard.ts';
import { chatBody, type Target } from './targets/target.ts';

const instant = chatBody(benchModels.instant, false);
const instantStream = chatBody(benchModels.instant, true);

/**
 * The Switchboard rows measured in turns: every variant is started at once (idle except in its turn),
 * then `rounds` rounds of the non-stream throughput phase (instant streams with --streams) go round
 * them (the floor too when it is given, already started), each round starting one row further
 * along, so each row meets the machine as the others do; a row keeps its median round. On a shared
 * machine, where other tenants move CPU per request by tens of percent from one minute to the next,
 * one-after-another runs cannot show a 5 % difference (the journal's budget); turns can. Each row is
 * then stopped cleanly and reconciled as in a normal run.
 */
export async function measureInTurns(
  context: RunContext,
  variants: readonly SwitchboardVariant[],
  rounds: number,
  floor?: { target: Target; report: TargetReport },
): Promise<void> {
  const { progress, fake, options } = context;
  const floorResults: ThroughputResult[] = [];
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
    const ownPids = [
      fake.pid,
      ...[floor?.target, ...measuring.map((entry) => entry.target)].flatMap((target) => (target?.process?.pid ? [target.process.pid] : [])),
    ];
    const phase = options.streams ? 'streamThroughput' : 'throughput';
    const otherTenantCores = await waitForQuiet(ownPids, options.durations.quietWaitMs);
    const throughputOf = (target: Target) =>
      measureThroughput(target, options.streams ? instantStream : (target.body ?? instant), {
        connections: throughputConnections,
        durationSeconds: options.durations.throughputSeconds,
        warmupSeconds: 1,
        upstreamPid: fake.pid,
      });
    // The floor takes its turn too, so a ratio to it compares rounds that met the same machine.
    const turns = [
      ...(floor ? [{ label: floor.report.label, target: floor.target, results: floorResults }] : []),
      ...measuring.map((entry) => ({ label: entry.variant.label, target: entry.target as Target, results: entry.results })),
    ];
    for (let round = 1; round <= rounds; round += 1) {
      // Each round starts one row further along, so no row always follows the same one (the first
      // row after the floor's saturating turn measured its worst rounds when the order was fixed).
      for (let step = 0; step < turns.length; step += 1) {
        const turn = turns[(round - 1 + step) % turns.length]!;
        const result = await throughputOf(turn.target);
        turn.results.push(result);
        progress(`  round ${round}, ${turn.label}: ${Math.round(result.rps)} req/s, ${result.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/req`);
      }
    }
    /** A row's median round, reported with every round's figure. */
    const medianOf = (label: string, results: readonly ThroughputResult[]) => {
      const throughput = medianBy(results, (result) => result.cpuMicrosPerRequest);
      const figures = results.map((result) => result.cpuMicrosPerRequest?.toFixed(0) ?? '–').join(', ');
      progress(`${label}: median ${throughput?.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/req (rounds: ${figures})`);
      return throughput;
    };
    if (floor) {
      const throughput = medianOf(floor.report.label, floorResults);
      // The floor keeps the idle memory read from its cold process; only its throughput comes from the turns.
      if (throughput && floor.report.measurements) floor.report.measurements[phase] = throughput;
    }
    for (const entry of measuring) {
      const throughput = medianOf(entry.variant.label, entry.results);
      entry.report.measurements = { otherTenantCores, waves: [], maxStreamsHeld: 0, ...(throughput ? { [phase]: throughput } : {}) };
      const clean = await sendCleanTraffic(chatTarget(entry.target, entry.target.seeded.cleanApiKey), cleanCaller);
      if (clean.failed > 0) progress(`  ${clean.failed} of ${clean.requests} clean requests failed`);
    }
  } finally {
    for (const entry of running) await entry.target.process?.stop();
  }
  // Stopped with SIGTERM: a clean stop flushes every pending write; then each row is reconciled.
  for (const entry of running) await reconcileVariant(context, entry.variant, entry.target, entry.report);
}
