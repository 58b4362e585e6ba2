import type { GatewayMeasurements } from '../measure/gateway-suite.ts';
import type { Reconciliation } from '../measure/reconcile.ts';
import type { ErrorModeResult } from '../load/error-modes.ts';
import type { SoakResult } from '../load/soak.ts';
import type { ProfileSummary } from './profile-summary.ts';
import type { DataSetComparison } from '../realistic/data-set-report.ts';

export type TargetKind = 'direct' | 'floor' | 'switchboard' | 'peer';

export interface TargetReport {
  id: string;
  label: string;
  kind: TargetKind;
  measurements?: GatewayMeasurements;
  errorModes?: ErrorModeResult[];
  soak?: SoakResult;
  reconciliation?: Reconciliation;
  /** Why the target did not run (for example: no PostgreSQL server answered). */
  skipped?: string;
  /** Why the target stopped part-way. */
  failed?: string;
}

/** Everything one run measured; written as JSON beside the Markdown table. */
export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  seconds: number;
  node: string;
  commit: string;
  machine: { cpus: number; model: string };
  placement: string;
  options: { soak: boolean; quick: boolean; profile: boolean; only: string[]; realisticScale?: number };
  targets: TargetReport[];
  profile?: ProfileSummary;
  /** `--realistic`: the tiny against realistic data set comparison (then the only rows of the run). */
  dataSets?: DataSetComparison;
}
