import { added } from '../report/markdown-values.ts';
import type { AddedLatency } from '../load/latency-probe.ts';
import type { ThroughputResult } from '../load/throughput.ts';
import type { DataSetShape } from './dataset-shape.ts';

/** One row of the data set comparison: one gateway on one data set, engine and process count. */
export interface DataSetRow {
  id: string;
  label: string;
  dataSet: 'floor' | 'tiny' | 'realistic';
  engine?: 'sqlite' | 'postgres';
  workers?: '1' | 'auto';
  startupMs?: number;
  idleTreeRssBytes?: number;
  latency?: AddedLatency;
  nonStream?: ThroughputResult;
  stream?: ThroughputResult;
  /** Machine load average (1 minute) when the row's throughput phase ended. */
  loadAverage?: number;
  skipped?: string;
  failed?: string;
}

export interface DataSetComparison {
  scale: number;
  shape: DataSetShape;
  abilities?: number;
  /** Generation time in this run (0 = taken from the cache) and size, per engine. */
  generated: Partial<Record<'sqlite' | 'postgres', { seconds: number; bytes: number }>>;
  rows: DataSetRow[];
}

const dash = '–';
const fixed = (value: number | undefined, digits = 0) => (value === undefined || !Number.isFinite(value) ? dash : value.toFixed(digits));
const mb = (bytes: number | undefined) => (bytes === undefined ? dash : (bytes / 1024 / 1024).toFixed(0));

/** CPU per request and its ratio to the floor's, as "212 (1.45 ×)". */
function againstFloor(value: number | undefined, floor: number | undefined): string {
  if (value === undefined || !Number.isFinite(value)) return dash;
  return floor ? `${value.toFixed(0)} (${(value / floor).toFixed(2)} ×)` : value.toFixed(0);
}

export function renderDataSetComparison(comparison: DataSetComparison): string {
  const { shape } = comparison;
  const floor = comparison.rows.find((row) => row.dataSet === 'floor');
  const lines = [
    `## Data sets: tiny against realistic (scale ${comparison.scale})`,
    '',
    `Realistic: ${shape.users.toLocaleString('en')} users, ${shape.tokens.toLocaleString('en')} tokens, ${shape.channels.toLocaleString('en')} channels (every eighth multi-key) serving ${shape.models} models in ${shape.groups} groups, ${comparison.abilities?.toLocaleString('en') ?? dash} abilities, ${shape.logs.toLocaleString('en')} logs over 30 days; traffic Zipf (s = 1.1) over ${shape.activeTokens.toLocaleString('en')} tokens and ${shape.activeModels} models. Tiny: one user, token, channel and model.`,
    '',
    ...Object.entries(comparison.generated).map(
      ([engine, figure]) => `- ${engine}: ${figure.seconds > 0 ? `generated in ${figure.seconds.toFixed(0)} s` : 'from the cache'}, ${mb(figure.bytes)} MB`,
    ),
    '',
    '| row | start-up to ready, ms | idle RSS (tree), MB | peak RSS under load (tree), MB | CPU µs / non-stream request (× floor) | CPU µs / instant stream (× floor) | added latency c=1 p50 / p99, ms | req/s c=32 | load avg |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  ];
  for (const row of comparison.rows) {
    if (row.skipped || row.failed) {
      lines.push(`| ${row.label} | ${row.skipped ? `skipped: ${row.skipped}` : `failed: ${row.failed}`} |||||||| `);
      continue;
    }
    const isFloor = row.dataSet === 'floor';
    lines.push(
      `| ${row.label} | ${fixed(row.startupMs)} | ${mb(row.idleTreeRssBytes)} | ${mb(row.nonStream?.rssPeakBytes)} | ${isFloor ? fixed(row.nonStream?.cpuMicrosPerRequest) : againstFloor(row.nonStream?.cpuMicrosPerRequest, floor?.nonStream?.cpuMicrosPerRequest)} | ${isFloor ? fixed(row.stream?.cpuMicrosPerRequest) : againstFloor(row.stream?.cpuMicrosPerRequest, floor?.stream?.cpuMicrosPerRequest)} | ${fixed(added(row.latency, 'total', 'p50'), 3)} / ${fixed(added(row.latency, 'total', 'p99'), 3)} | ${fixed(row.nonStream?.rps)} | ${fixed(row.loadAverage, 1)} |`,
    );
  }
  lines.push(
    '',
    'WORKERS=auto rows run on both cores (two workers behind the primary), sharing CPU 1 with the load generator and the fake upstream; their CPU and RSS sum the whole process tree. Non-stream and stream rows of the realistic data set send the Zipf mix; the tiny rows and the floor send the bench model with the bench token.',
    '',
  );
  return lines.join('\n');
}
