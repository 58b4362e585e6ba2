import { describe, expect, it } from 'vitest';
import type { ThroughputResult } from '../load/throughput.ts';
import type { GatewayMeasurements } from '../measure/gateway-suite.ts';
import type { BenchReport, TargetReport } from './bench-report.ts';
import { budgetChecks } from './budgets.ts';
import { benchFailures } from './verdict.ts';

const throughput = (cpuMicrosPerRequest: number, rps = 5000) => ({ cpuMicrosPerRequest, rps }) as ThroughputResult;
const measurements = (fields: Partial<GatewayMeasurements>): GatewayMeasurements => ({ otherTenantCores: 0, waves: [], maxStreamsHeld: 0, ...fields });

function report(targets: TargetReport[]): BenchReport {
  return {
    startedAt: '',
    finishedAt: '',
    seconds: 1,
    node: 'v24',
    commit: 'x',
    machine: { cpus: 2, model: 'test' },
    placement: '',
    options: { soak: false, quick: true, profile: false, only: [] },
    targets,
  };
}

const floor: TargetReport = { id: 'floor', label: 'floor', kind: 'floor', measurements: measurements({ throughput: throughput(100) }) };
const sqlite = (cpu: number, extra: Partial<TargetReport> = {}): TargetReport => ({
  id: 'switchboard-sqlite',
  label: 'Switchboard (SQLite)',
  kind: 'switchboard',
  measurements: measurements({ throughput: throughput(cpu), idleRssBytes: 60 * 1024 * 1024, idlePrivateBytes: 30 * 1024 * 1024 }),
  ...extra,
});

describe('bench verdict', () => {
  it('passes a run within every budget', () => {
    const run = report([floor, sqlite(125)]);
    expect(budgetChecks(run).map((check) => [check.budget, check.met])).toEqual([
      ['Switchboard (SQLite): CPU per non-stream request ≤ 150 µs', true],
      ['Switchboard (SQLite): ≤ 1.3 × the floor', true],
      ['Switchboard (SQLite): idle ≤ 80 MB (RSS)', true],
      ['Switchboard (SQLite): idle private memory ≤ 80 MB', true],
    ]);
    expect(benchFailures(run)).toEqual([]);
  });

  it('fails on each budget missed, naming what was measured', () => {
    expect(benchFailures(report([floor, sqlite(160)]))).toEqual([
      'budget missed: Switchboard (SQLite): CPU per non-stream request ≤ 150 µs (measured 160 µs)',
      'budget missed: Switchboard (SQLite): ≤ 1.3 × the floor (measured 1.60 × (100 µs))',
    ]);
  });

  it('holds CPU per instant stream to 1.2 × the floor when both streamed', () => {
    const streamingFloor: TargetReport = { ...floor, measurements: measurements({ throughput: throughput(100), streamThroughput: throughput(200) }) };
    const streaming = (perStream: number) =>
      sqlite(125, { measurements: measurements({ throughput: throughput(125), streamThroughput: throughput(perStream) }) });
    expect(benchFailures(report([streamingFloor, streaming(240)]))).toEqual([]);
    expect(benchFailures(report([streamingFloor, streaming(250)]))).toEqual([
      'budget missed: Switchboard (SQLite): CPU per instant stream ≤ 1.2 × the floor (measured 1.25 × (250 vs 200 µs))',
    ]);
  });

  it('fails on a target that stopped part-way, not on one that was skipped', () => {
    const postgresMissing: TargetReport = {
      id: 'switchboard-postgres',
      label: 'Switchboard (PostgreSQL)',
      kind: 'switchboard',
      skipped: 'no PostgreSQL server answered',
    };
    expect(benchFailures(report([floor, sqlite(125), postgresMissing]))).toEqual([]);
    expect(benchFailures(report([floor, sqlite(125, { failed: 'the gateway exited with code 1' })]))).toEqual([
      'Switchboard (SQLite) stopped early: the gateway exited with code 1',
    ]);
  });

  it('fails when the database-on throughput falls under 90 % of logging off', () => {
    const off: TargetReport = {
      id: 'switchboard-nolog',
      label: 'no log',
      kind: 'switchboard',
      measurements: measurements({ throughput: throughput(100, 10_000) }),
    };
    const on = sqlite(125);
    (on.measurements as GatewayMeasurements).throughput = throughput(125, 8_900);
    expect(benchFailures(report([floor, on, off]))).toEqual(['budget missed: database on ≥ 90 % of logging-off throughput (SQLite) (measured 89.0 %)']);
  });
});

describe('bench comparisons in the same run', () => {
  const variant = (id: string, cpu: number): TargetReport => ({
    id,
    label: id,
    kind: 'switchboard',
    measurements: measurements({ throughput: throughput(cpu) }),
  });

  it('holds the crash journal to 5 % of CPU per request', () => {
    expect(benchFailures(report([floor, sqlite(104), variant('switchboard-nojournal', 100)]))).toEqual([]);
    expect(benchFailures(report([floor, sqlite(106), variant('switchboard-nojournal', 100)]))).toEqual([
      'budget missed: crash journal costs ≤ 5 % CPU per request (SQLite, journal on vs off) (measured +6.0 % (106 vs 100 µs))',
    ]);
  });

  it("reports the native paths' CPU per request against the OpenAI path without failing the run", () => {
    const run = report([floor, sqlite(100), variant('switchboard-native-claude', 80), variant('switchboard-native-gemini', 130)]);
    const native = budgetChecks(run).filter((check) => check.budget.startsWith('native'));
    expect(native).toEqual([
      {
        budget: 'native Claude path: CPU per request vs the OpenAI path (report only; SQLite, non-stream)',
        measured: '-20.0 % (80 vs 100 µs)',
        met: true,
        reportOnly: true,
      },
      {
        budget: 'native Gemini path: CPU per request vs the OpenAI path (report only; SQLite, non-stream)',
        measured: '+30.0 % (130 vs 100 µs)',
        met: true,
        reportOnly: true,
      },
    ]);
    expect(benchFailures(run)).toEqual([]);
  });

  it('fails a build that costs more CPU than the baseline beyond the noise', () => {
    expect(benchFailures(report([floor, sqlite(102), variant('switchboard-baseline', 100)]))).toEqual([]);
    expect(benchFailures(report([floor, sqlite(110), variant('switchboard-baseline', 100)]))).toEqual([
      'budget missed: CPU per request no worse than the baseline build (SQLite, within 3 % noise) (measured +10.0 % (110 vs 100 µs))',
    ]);
  });
});
