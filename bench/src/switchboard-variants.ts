import { request } from 'undici';
import { benchModels } from './fake-upstream/behaviours.ts';
import { readFakeStats } from './fake-upstream/fake-stats.ts';
import { reconcile } from './measure/reconcile.ts';
import type { TargetReport } from './report/bench-report.ts';
import type { RunOptions } from './run-options.ts';
import { startSwitchboard, type SwitchboardTarget } from './targets/switchboard.ts';
import { startingQuota } from './targets/switchboard-seed.ts';
import { nativeTarget, type NativeVendor } from './targets/native-targets.ts';
import { chatBody, type Target } from './targets/target.ts';

/** What the target runs share: options, folders, the fake upstream, the report rows, cleanups. */
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

/** Gateways get CPU 0; the fake upstream and the load generator share CPU 1. */
export const gatewayCpu = '0';

/** One request through the gateway before measuring: a relay that does not answer 200 is reported, not timed. */
export async function probe(target: Target): Promise<string | undefined> {
  try {
    const answer = await request(`${target.origin}${target.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: target.body ?? chatBody(benchModels.instant, false),
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await answer.body.text();
    // OpenAI and Claude answers carry `usage`, Gemini's `usageMetadata`.
    return answer.statusCode === 200 && /"usage(?:Metadata)?"\s*:/.test(text) ? undefined : `HTTP ${answer.statusCode}: ${text.slice(0, 300)}`;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export interface SwitchboardVariant {
  id: string;
  label: string;
  postgres: boolean;
  extraOptions: Record<string, string>;
  /** Columns set on the bench tokens (the request limits' row sets its limits). */
  tokenColumns?: Record<string, number | string>;
  env?: Record<string, string>;
  soak?: boolean;
  /** Measured only to compare one figure with the main row (throughput phase only). */
  comparison?: boolean;
  /** False when the row's charges are not the fake's usage × price (response-cache hits): no reconciliation. */
  reconciles?: boolean;
  /** Another checkout to run instead of this one (the baseline). */
  repoRoot?: string;
  nodeFlags?: string[];
  /** Runs `main.ts` instead of the bundle (the profiled run, for source file names and lines). */
  fromSource?: boolean;
  /** Cores the gateway may use (taskset list); CPU 0 alone unless a variant spreads over more. */
  cpus?: string;
  /** Measured on a vendor's native route in its format (issue 35) instead of OpenAI chat; non-stream only. */
  native?: NativeVendor;
}

/** Starts one Switchboard variant on its fresh, seeded database (dropped by the run's cleanups). */
export async function startVariant(context: RunContext, variant: SwitchboardVariant): Promise<SwitchboardTarget> {
  const started = await startSwitchboard({
    id: variant.id,
    label: variant.label,
    repoRoot: variant.repoRoot ?? context.repoRoot,
    runDir: context.runDir,
    upstreamOrigin: context.fake.origin,
    postgresServerUrl: variant.postgres ? context.options.postgresUrl : undefined,
    cpus: variant.cpus ?? gatewayCpu,
    logLevel: 'info',
    // Only the phases of a whole run read the gateway's own stalls; a CPU comparison runs as `npm start` does.
    eventLoopMonitor: !context.options.throughputOnly,
    extraOptions: variant.extraOptions,
    ...(variant.tokenColumns ? { tokenColumns: variant.tokenColumns } : {}),
    ...(variant.env ? { env: variant.env } : {}),
    nodeFlags: variant.nodeFlags ?? [],
    ...(variant.fromSource ? { fromSource: true } : {}),
  });
  context.cleanups.push(() => started.cleanup());
  return variant.native ? nativeTarget(started, variant.native, started.seeded.apiKey) : started;
}

/** After a clean stop: the fake's usage tally against the variant's database. */
export async function reconcileVariant(context: RunContext, variant: SwitchboardVariant, target: SwitchboardTarget, report: TargetReport): Promise<void> {
  if (variant.reconciles === false) return;
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
