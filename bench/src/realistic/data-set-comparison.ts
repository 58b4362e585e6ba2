import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { benchModels } from '../fake-upstream/behaviours.ts';
import { measureAddedLatency } from '../load/latency-probe.ts';
import { measureThroughput, throughputConnections } from '../load/throughput.ts';
import { treeRssBytes } from '../platform/proc-stats.ts';
import { waitForQuiet } from '../platform/quiet.ts';
import { gatewayCpu, probe, type RunContext } from '../switchboard-variants.ts';
import { startFloor } from '../targets/floor.ts';
import { startSwitchboard } from '../targets/switchboard.ts';
import { chatBody, type Target } from '../targets/target.ts';
import { type CachedDataSet, cachedPostgresDataSet, cachedSqliteDataSet } from './dataset-cache.ts';
import type { DataSetComparison, DataSetRow } from './data-set-report.ts';
import { dataSetShape } from './dataset-shape.ts';
import { realisticStartingDataSet } from './starting-data-set.ts';
import { RealisticTraffic, type PickedRequest } from './traffic.ts';

interface Load {
  nonStream: string | (() => PickedRequest);
  stream: string | (() => PickedRequest);
}

/**
 * `npm run bench -- --realistic`: the floor, then Switchboard on today's tiny data set and on the
 * realistic one, on SQLite and PostgreSQL, with one process and with WORKERS=auto, each row started
 * fresh and measured the same way (start-up to ready, idle RSS of the tree, added latency at c=1,
 * CPU per request non-stream and per instant stream at c=32, peak RSS of the tree under that load).
 */
export async function runDataSetComparison(context: RunContext): Promise<DataSetComparison> {
  const { options, progress } = context;
  const shape = dataSetShape(options.realisticScale);
  const comparison: DataSetComparison = { scale: options.realisticScale, shape, generated: {}, rows: [] };
  const sqlite = await cachedSqliteDataSet(options.realisticScale, shape, progress);
  comparison.generated.sqlite = { seconds: sqlite.generatedSeconds, bytes: sqlite.bytes };
  let postgres: CachedDataSet | undefined;
  let postgresMissing: string | undefined;
  try {
    postgres = await cachedPostgresDataSet(options.postgresUrl, options.realisticScale, shape, progress);
    comparison.generated.postgres = { seconds: postgres.generatedSeconds, bytes: postgres.bytes };
  } catch (error) {
    postgresMissing = error instanceof Error ? error.message : String(error);
    progress(`PostgreSQL rows skipped: ${postgresMissing}`);
  }
  comparison.abilities = await countAbilities(sqlite);
  const tiny: Load = { nonStream: chatBody(benchModels.instant, false), stream: chatBody(benchModels.instant, true) };
  const nonStreamTraffic = new RealisticTraffic(shape, false, 1);
  const streamTraffic = new RealisticTraffic(shape, true, 2);
  const realistic: Load = { nonStream: () => nonStreamTraffic.next(), stream: () => streamTraffic.next() };

  comparison.rows.push(
    await measureRow(
      context,
      { id: 'floor', label: 'floor (node:http + undici)', dataSet: 'floor' },
      () => startFloor({ runDir: context.runDir, upstreamOrigin: context.fake.origin, cpus: gatewayCpu, eventLoopMonitor: false }),
      tiny,
    ),
  );
  for (const engine of ['sqlite', 'postgres'] as const) {
    for (const workers of ['1', 'auto'] as const) {
      for (const dataSet of ['tiny', 'realistic'] as const) {
        const id = `switchboard-${engine}-${dataSet}-w${workers}`;
        const row: DataSetRow = {
          id,
          label: `Switchboard, ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${dataSet}, WORKERS=${workers}`,
          dataSet,
          engine,
          workers,
        };
        if (engine === 'postgres' && !postgres) {
          comparison.rows.push({ ...row, skipped: postgresMissing ?? 'no PostgreSQL' });
          continue;
        }
        const cached = engine === 'postgres' ? postgres : sqlite;
        comparison.rows.push(
          await measureRow(
            context,
            row,
            async () => {
              const started = await startSwitchboard({
                id,
                label: row.label,
                repoRoot: context.repoRoot,
                runDir: context.runDir,
                upstreamOrigin: context.fake.origin,
                ...(engine === 'postgres' ? { postgresServerUrl: options.postgresUrl } : {}),
                cpus: workers === 'auto' ? '0,1' : gatewayCpu,
                logLevel: 'info',
                eventLoopMonitor: false,
                env: { WORKERS: workers },
                ...(dataSet === 'realistic' && cached ? { dataSet: realisticStartingDataSet(cached, shape) } : {}),
              });
              context.cleanups.push(() => started.cleanup());
              row.startupMs = started.startupMs;
              progress(`  ready in ${started.startupMs.toFixed(0)} ms`);
              return started;
            },
            dataSet === 'realistic' ? realistic : tiny,
          ),
        );
      }
    }
  }
  return comparison;
}

async function measureRow(context: RunContext, row: DataSetRow, start: () => Promise<Target>, load: Load): Promise<DataSetRow> {
  const { durations } = context.options;
  context.progress(`— ${row.label}`);
  let target: Target | undefined;
  try {
    target = await start();
    const refused = await probe(target);
    if (refused) throw new Error(`the first request failed: ${refused}`);
    const pid = target.process?.pid;
    const own = [context.fake.pid, ...(pid ? [pid] : [])];
    await waitForQuiet(own, durations.quietWaitMs);
    await sleep(1000);
    if (pid) row.idleTreeRssBytes = treeRssBytes(pid);
    row.latency = await measureAddedLatency(context.fake.target, target, load.nonStream, durations.latencyRounds, durations.latencyRoundMs);
    await waitForQuiet(own, durations.quietWaitMs);
    row.nonStream = await measureThroughput(target, typeof load.nonStream === 'string' ? load.nonStream : '', {
      connections: throughputConnections,
      durationSeconds: durations.throughputSeconds,
      warmupSeconds: durations.warmupSeconds,
      upstreamPid: context.fake.pid,
      ...(typeof load.nonStream === 'string' ? {} : { pick: load.nonStream }),
    });
    row.stream = await measureThroughput(target, typeof load.stream === 'string' ? load.stream : '', {
      connections: throughputConnections,
      durationSeconds: Math.max(2, durations.throughputSeconds / 2),
      warmupSeconds: 1,
      upstreamPid: context.fake.pid,
      ...(typeof load.stream === 'string' ? {} : { pick: load.stream }),
    });
    row.loadAverage = loadavg()[0];
    const failures = row.nonStream.non2xx + row.nonStream.errors + row.stream.non2xx + row.stream.errors;
    context.progress(
      `  ${row.nonStream.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/req, ${row.stream.cpuMicrosPerRequest?.toFixed(0) ?? '–'} µs CPU/stream${failures ? `, ${failures} failed requests` : ''}`,
    );
    if (failures > 0) row.failed = `${failures} requests failed or answered non-2xx under load`;
  } catch (error) {
    row.failed = error instanceof Error ? error.message : String(error);
    context.progress(`${row.label} stopped early: ${row.failed}`);
  } finally {
    await target?.process?.stop();
  }
  return row;
}

async function countAbilities(cached: CachedDataSet): Promise<number | undefined> {
  if (!cached.sqliteFile) return undefined;
  const { default: SqliteDatabase } = await import('better-sqlite3');
  const sqlite = new SqliteDatabase(cached.sqliteFile, { readonly: true });
  try {
    return (sqlite.prepare('select count(*) as n from abilities').get() as { n: number }).n;
  } finally {
    sqlite.close();
  }
}
