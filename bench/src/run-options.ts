/** Command-line flags of `npm run bench -- …` and the durations they imply. */
export interface RunOptions {
  /** Ten-minute memory soak instead of the short default one. */
  soak: boolean;
  /** Very short phases: a smoke run of the whole harness in about two minutes. */
  quick: boolean;
  /** Record a V8 CPU profile of Switchboard (SQLite) into the results folder. */
  profile: boolean;
  /**
   * With --profile: the profiled requests are response-cache hits (a rule storing the bench models,
   * every request after the first answered from memory), non-stream only: the path issue 40 holds
   * below the floor.
   */
  profileCacheHit: boolean;
  /**
   * Every target runs only the non-stream throughput phase (CPU per request), then the clean traffic
   * and reconciliation: a few minutes for comparing rows such as journal on and off.
   */
  throughputOnly: boolean;
  /**
   * With --throughput-only: the Switchboard rows are started together and measured in turns, this many
   * rounds, each row keeping its median round (see interleaved-runs.ts). 0 or 1: one after another.
   */
  interleave: number;
  /**
   * With --interleave: the turns measure instant streams (CPU per stream) instead of non-stream
   * requests. With --profile: the profiled load is instant streams.
   */
  streams: boolean;
  /** Target ids to run (all when empty): floor, switchboard-sqlite, switchboard-postgres, switchboard-nolog, switchboard-quietlog, switchboard-nojournal, switchboard-limits, switchboard-tracing, switchboard-cache-miss, switchboard-cache-hit, switchboard-workers, switchboard-baseline, portkey. */
  only: string[];
  /** PostgreSQL server used for a fresh database (its own database part is ignored). */
  postgresUrl: string;
  /**
   * Another checkout of Switchboard (with its own node_modules), measured as `switchboard-baseline` in
   * the same run: "CPU per request no worse than before" compares two builds under the same conditions.
   */
  baselineRoot: string;
  /**
   * Runs the data set comparison instead of the gateway rows: the floor, then Switchboard on today's
   * tiny data set and on the generated realistic one, SQLite and PostgreSQL, WORKERS=1 and auto.
   */
  realistic: boolean;
  /** Share of the realistic data set's rows (1 = 50,000 users … 10 million logs); 0.1 for a check. */
  realisticScale: number;
  /**
   * Runs the log page bench instead of the gateway rows: every console filter's first and a deep page on
   * the realistic data set's log table, SQLite and PostgreSQL; a page over 200 ms fails the run.
   */
  logPages: boolean;
  durations: PhaseDurations;
}

export interface PhaseDurations {
  /** c=1 interleaved rounds against direct, per side and round. */
  latencyRounds: number;
  latencyRoundMs: number;
  throughputSeconds: number;
  warmupSeconds: number;
  pacedSeconds: number;
  stallSeconds: number;
  soakSeconds: number;
  /** Longest wait for other tenants of the machine to go quiet before a phase. */
  quietWaitMs: number;
  /** Concurrent paced stream levels tried, in order, until one loses a frame. */
  streamLevels: number[];
}

const usage = `npm run bench [-- --soak] [--quick] [--profile [--profile-cache-hit]] [--throughput-only [--interleave=N]] [--streams] [--only=floor,switchboard-sqlite,…] [--pg=postgres://…] [--baseline=<another checkout>] [--realistic [--realistic-scale=0.1]] [--log-pages [--realistic-scale=0.1]]`;

export function parseRunOptions(argv: readonly string[], env: NodeJS.ProcessEnv): RunOptions {
  const flags = new Set(argv.filter((arg) => !arg.includes('=')));
  const values = new Map(argv.filter((arg) => arg.includes('=')).map((arg) => [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]));
  for (const flag of flags) {
    if (!['--soak', '--quick', '--profile', '--profile-cache-hit', '--throughput-only', '--streams', '--realistic', '--log-pages', '--help'].includes(flag))
      throw new Error(`unknown flag ${flag}\nusage: ${usage}`);
  }
  for (const key of values.keys()) {
    if (!['--only', '--pg', '--baseline', '--interleave', '--realistic-scale'].includes(key)) throw new Error(`unknown option ${key}\nusage: ${usage}`);
  }
  if (flags.has('--help')) {
    console.log(usage);
    process.exit(0);
  }
  const quick = flags.has('--quick');
  const soak = flags.has('--soak');
  const durations: PhaseDurations = quick
    ? {
        latencyRounds: 2,
        latencyRoundMs: 500,
        throughputSeconds: 2,
        warmupSeconds: 1,
        pacedSeconds: 2,
        stallSeconds: 3,
        soakSeconds: 10,
        quietWaitMs: 2000,
        streamLevels: [250, 1000],
      }
    : {
        latencyRounds: 4,
        latencyRoundMs: 1000,
        throughputSeconds: 6,
        warmupSeconds: 2,
        pacedSeconds: 4,
        stallSeconds: 6,
        soakSeconds: 30,
        quietWaitMs: 4000,
        streamLevels: [500, 1000, 2000],
      };
  if (soak) durations.soakSeconds = 600;
  return {
    soak,
    quick,
    profile: flags.has('--profile') || flags.has('--profile-cache-hit'),
    profileCacheHit: parseProfileCacheHit(flags.has('--profile-cache-hit'), flags.has('--streams')),
    throughputOnly: flags.has('--throughput-only'),
    interleave: parseInterleave(values.get('--interleave'), flags.has('--throughput-only')),
    streams: parseStreams(flags.has('--streams'), values.has('--interleave') || flags.has('--profile')),
    only: (values.get('--only') ?? '').split(',').filter(Boolean),
    postgresUrl: values.get('--pg') ?? env.BENCH_PG_URL ?? env.TEST_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
    baselineRoot: values.get('--baseline') ?? '',
    realistic: !flags.has('--log-pages') && (flags.has('--realistic') || values.has('--realistic-scale')),
    logPages: flags.has('--log-pages'),
    realisticScale: parseScale(values.get('--realistic-scale')),
    durations,
  };
}

function parseInterleave(value: string | undefined, throughputOnly: boolean): number {
  if (value === undefined) return 0;
  const rounds = Number(value);
  if (!Number.isInteger(rounds) || rounds < 1 || rounds > 50) throw new Error(`--interleave must be a whole number of rounds from 1 to 50\nusage: ${usage}`);
  if (!throughputOnly) throw new Error(`--interleave measures only throughput: add --throughput-only\nusage: ${usage}`);
  return rounds;
}

function parseStreams(streams: boolean, turnsOrProfile: boolean): boolean {
  if (streams && !turnsOrProfile)
    throw new Error(`--streams chooses what the turns or the profile measure: add --throughput-only --interleave=N, or --profile\nusage: ${usage}`);
  return streams;
}

function parseProfileCacheHit(cacheHit: boolean, streams: boolean): boolean {
  if (cacheHit && streams) throw new Error(`--profile-cache-hit profiles non-stream hits: leave out --streams\nusage: ${usage}`);
  return cacheHit;
}

function parseScale(value: string | undefined): number {
  if (value === undefined) return 1;
  const scale = Number(value);
  if (!(scale > 0 && scale <= 1)) throw new Error(`--realistic-scale must be a number above 0 and at most 1 (1 = the full data set)\nusage: ${usage}`);
  return scale;
}
