import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { request } from 'undici';
import { serverMallocEnvironment } from '../../../packages/server/src/malloc-environment.ts';
import { serverNodeFlags } from '../../../packages/server/src/node-flags.ts';
import { eventLoopResolutionMs } from '../../../packages/server/src/core/platform/metrics.ts';
import { freePort, startProcess, waitForPort } from '../platform/processes.ts';
import { repoRoot as thisCheckout } from '../platform/results-folder.ts';
import { seedSwitchboard, type SeededSwitchboard } from './switchboard-seed.ts';
import type { StartingDataSet } from '../realistic/starting-data-set.ts';
import { chatPath, type Target } from './target.ts';

export interface SwitchboardTarget extends Target {
  readonly seeded: SeededSwitchboard;
  readonly sqlDsn: string;
  readonly sqlitePath: string;
  /** Drops what was created for this run (the PostgreSQL database); the SQLite file stays with the results. */
  cleanup(): Promise<void>;
  /** From spawning the process to ready: the port open and, with several workers, every worker up. */
  readonly startupMs: number;
}

export interface SwitchboardStart {
  id: string;
  label: string;
  repoRoot: string;
  runDir: string;
  upstreamOrigin: string;
  /** Empty for SQLite; otherwise a PostgreSQL server URL whose database part is replaced by a fresh one. */
  postgresServerUrl?: string;
  cpus: string;
  /** Extra node flags (for example --cpu-prof). */
  nodeFlags?: readonly string[];
  /** Run `main.ts` rather than the bundle: a CPU profile then names source files and lines. */
  fromSource?: boolean;
  logLevel: string;
  /**
   * Metrics on (METRICS_TOKEN), for a run that reads the gateway's own event-loop stalls from /metrics.
   * Off, as `npm start` runs by default: their event-loop monitor wakes the process every few
   * milliseconds and every request is counted into them, a cost the default deployment does not pay.
   */
  eventLoopMonitor: boolean;
  /** Options rows written before start (for example LogConsumeEnabled=false for the logging-off variant). */
  extraOptions?: Readonly<Record<string, string>>;
  /** Columns set on every bench token (for example its request limits). */
  tokenColumns?: Readonly<Record<string, number | string>>;
  /** Extra environment (for example QUOTA_JOURNAL_DIR=off for the journal-off variant). */
  env?: Readonly<Record<string, string>>;
  /** Start from a generated data set (a copy of its SQLite file, a clone of its PostgreSQL template) instead of an empty database. */
  dataSet?: StartingDataSet;
  /** A program the gateway runs under (valgrind), and how long it may take to listen then. */
  wrapper?: readonly string[];
  startTimeoutMs?: number;
}

/** The scraper's bearer token of the gateways the bench starts. */
const metricsToken = 'bench-metrics-token-0123456789';

/**
 * prom-client's nodejs_eventloop_lag_max_seconds: the longest interval of Node's event-loop delay
 * monitor since the previous scrape (each scrape resets it), less the monitor's own sampling interval.
 */
async function scrapeEventLoopMaxMs(origin: string): Promise<number | undefined> {
  try {
    const answer = await request(`${origin}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    const text = await answer.body.text();
    const line = text.split('\n').find((candidate) => candidate.startsWith('nodejs_eventloop_lag_max_seconds '));
    if (answer.statusCode !== 200 || !line) return undefined;
    return Math.max(0, Number(line.split(' ')[1]) * 1000 - eventLoopResolutionMs);
  } catch {
    return undefined;
  }
}

/**
 * A fresh database on the server (a clone of `template` when given); an unreachable server throws with
 * the driver's reason (password masked).
 */
export async function createPostgresDatabase(serverUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`);
  } catch (error) {
    const shown = new URL(serverUrl);
    if (shown.password) shown.password = '***';
    throw new Error(`no PostgreSQL server answered at ${shown.toString()}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    await client.end().catch(() => undefined);
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query(`drop database if exists "${name}" with (force)`);
  } catch {
    // Best effort: a leftover bench database is harmless and named after the run.
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function waitForLogLine(logFile: string, text: string, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (existsSync(logFile) && readFileSync(logFile, 'utf8').includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`"${text}" not logged within ${timeoutMs / 1000} s (${logFile})`);
}

const entries = new Map<string, Promise<string>>();
const sourceMainOf = (repoRoot: string) => join(repoRoot, 'packages/server/src/main.ts');

/**
 * The file `npm start` runs in that checkout: its prebuilt bundle (built once per bench run when stale),
 * or `main.ts` for a baseline checkout from before the bundle existed.
 */
function serverEntryOf(repoRoot: string): Promise<string> {
  let entry = entries.get(repoRoot);
  if (!entry) {
    const builder = join(repoRoot, 'packages/server/src/entry/bundle/server-entry.ts');
    entry = existsSync(builder)
      ? (import(builder) as Promise<{ preparedServerEntry: () => Promise<string> }>).then((module) => module.preparedServerEntry())
      : Promise.resolve(sourceMainOf(repoRoot));
    entries.set(repoRoot, entry);
  }
  return entry;
}

/**
 * Switchboard as users run it: what `npm start` runs (the prebuilt bundle) with its Node flags, in its
 * own process pinned to one core, on
 * a fresh database seeded directly (user, token, channel to the fake upstream, abilities, pricing).
 */
export async function startSwitchboard(options: SwitchboardStart): Promise<SwitchboardTarget> {
  const sqlitePath = join(options.runDir, `${options.id}.db`);
  let sqlDsn = '';
  let databaseName: string | undefined;
  if (options.postgresServerUrl) {
    databaseName = `switchboard_bench_${Date.now()}_${options.id.replace(/\W/g, '_')}`;
    sqlDsn = await createPostgresDatabase(options.postgresServerUrl, databaseName, options.dataSet?.postgresTemplate);
  } else if (options.dataSet) {
    options.dataSet.copySqlite(sqlitePath);
  }
  const upstreamKey = `fake-key-${options.id}`;
  // Seeded by the checkout that runs: another build (the baseline) migrates with its own migrations.
  const seed =
    options.repoRoot === thisCheckout
      ? seedSwitchboard
      : ((await import(join(options.repoRoot, 'bench/src/targets/switchboard-seed.ts'))) as { seedSwitchboard: typeof seedSwitchboard }).seedSwitchboard;
  const seeded = await seed(sqlDsn, sqlitePath, options.upstreamOrigin, upstreamKey, options.extraOptions, options.tokenColumns);
  await options.dataSet?.finish(sqlDsn, sqlitePath, options.upstreamOrigin);
  const port = await freePort();
  // Resolved before the clock starts: the first row of a run may build the bundle first.
  const entry = options.fromSource ? sourceMainOf(options.repoRoot) : await serverEntryOf(options.repoRoot);
  const spawnedAt = performance.now();
  const started = startProcess({
    name: options.label,
    command: process.execPath,
    args: [...serverNodeFlags, ...(options.nodeFlags ?? []), entry],
    cpus: options.cpus,
    cwd: options.repoRoot,
    logFile: join(options.runDir, `${options.id}.log`),
    ...(options.wrapper ? { wrapper: options.wrapper } : {}),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // As `npm start` and the Docker image run it (a variant's env may override).
      ...serverMallocEnvironment,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQL_DSN: sqlDsn,
      SQLITE_PATH: sqlitePath,
      SESSION_SECRET: `bench-session-secret-${Date.now()}`,
      INITIAL_ROOT_PASSWORD: 'bench-root-pass',
      LOG_LEVEL: options.logLevel,
      NODE_ENV: 'production',
      METRICS_TOKEN: options.eventLoopMonitor ? metricsToken : '',
      // One process unless a variant asks for more: the phases compare with earlier runs.
      WORKERS: '1',
      ...options.env,
    },
  });
  await waitForPort(port, started, options.startTimeoutMs);
  // The port opens with the first worker; the others start once it has migrated.
  // `auto` is one worker per core the process may use: the cores it is pinned to.
  const workers = options.env?.WORKERS === 'auto' ? options.cpus.split(',').length : Number(options.env?.WORKERS ?? 1);
  if (workers > 1) await waitForLogLine(join(options.runDir, `${options.id}.log`), `with ${workers} worker processes`);
  const startupMs = performance.now() - spawnedAt;
  const postgresServerUrl = options.postgresServerUrl;
  return {
    startupMs,
    id: options.id,
    label: options.label,
    origin: `http://127.0.0.1:${port}`,
    path: chatPath,
    headers: { authorization: `Bearer ${seeded.apiKey}` },
    process: started,
    ...(options.eventLoopMonitor ? { eventLoopMaxDelayMs: () => scrapeEventLoopMaxMs(`http://127.0.0.1:${port}`) } : {}),
    seeded,
    sqlDsn,
    sqlitePath,
    async cleanup() {
      if (postgresServerUrl && databaseName) await dropPostgresDatabase(postgresServerUrl, databaseName);
    },
  };
}
