import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { dirname } from 'node:path';
import { z } from 'zod';
import { defaultTokenCacheSize, defaultUserCacheSize } from './cache-sizes.ts';
import { loadOutsideEndpoints, type OutsideEndpoints } from './outside-endpoints.ts';
import { hideSecrets, isSecretVariable } from './secret-variables.ts';
import { loadTracingConfig, type TracingConfig } from './tracing-config.ts';

/**
 * The one place that reads the environment. Names follow new-api so existing deployments keep working.
 * A bad value stops start-up with a message naming the variable (see `ConfigError`).
 */
export interface Config {
  port: number;
  host: string;
  sqlDsn: string;
  sqlitePath: string;
  logSqlDsn: string;
  /**
   * Folder of the quota journal (settled charges written before their answer completes, replayed
   * after a crash): QUOTA_JOURNAL_DIR, else the SQLite file's folder; empty when it is `off`.
   */
  quotaJournalDir: string;
  redisConnString: string;
  sessionSecret: string;
  /** True when SESSION_SECRET was not set: sessions will not survive a restart or span instances. */
  sessionSecretGenerated: boolean;
  cryptoSecret: string;
  syncFrequencySeconds: number;
  /** TOKEN_CACHE_SIZE: relay tokens held in memory per process, those unused longest dropped first. */
  tokenCacheSize: number;
  /** USER_CACHE_SIZE: users held in memory per process, those unused longest dropped first. */
  userCacheSize: number;
  nodeType: 'master' | 'slave';
  streamingTimeoutSeconds: number;
  relayTimeoutSeconds: number;
  /**
   * RELAY_FIRST_BYTE_TIMEOUT: seconds an upstream may take to send its first byte (response headers,
   * a stream's first chunk) before the attempt is abandoned, uncharged, for the next channel; 0 = none.
   * A channel's `first_byte_timeout` setting overrides it.
   */
  firstByteTimeoutSeconds: number;
  /** EXPORT_READ_TIMEOUT_SECONDS: a CSV download whose reader takes nothing for this long is cut off. */
  exportReadTimeoutSeconds: number;
  /** TASK_TIMEOUT_MINUTES: a drawing or music task still unfinished after this long fails and is refunded. */
  taskTimeoutMinutes: number;
  /** TASK_POLL_INTERVAL_SECONDS: between two passes of the drawing and music task poller (new-api: 15 s; tests poll faster). */
  taskPollIntervalSeconds: number;
  /** CHANNEL_TEST_FREQUENCY: test channels every this many minutes, whatever the console's monitor settings say; 0 = unset. */
  channelTestFrequencyMinutes: number;
  initialRootPassword: string;
  logLevel: string;
  webDistPath: string;
  shutdownTimeoutSeconds: number;
  /** Unset in production; tests point outside-world calls (Turnstile, OAuth) at local fakes through options and this. */
  trustProxy: boolean;
  /** Bearer token a Prometheus scraper sends to GET /metrics; empty turns metrics off. */
  metricsToken: string;
  /** Turnstile and OAuth provider addresses (overridable so tests use local fakes). */
  outsideEndpoints: OutsideEndpoints;
  /** new-api's IP and per-user request limits of the console API and pages (limits/ip-rate-limits.ts). */
  rateLimits: RateLimitsConfig;
  /** TZ (an IANA zone such as Asia/Shanghai), else the system's: where budget days, weeks and months start. */
  timeZone: string;
  /** OpenTelemetry traces (OTEL_* variables, tracing-config.ts); undefined when off. */
  tracing: TracingConfig | undefined;
  /** WORKERS: relay processes sharing the port (`auto` = one per available core; 1 = this process alone). */
  workers: number;
  /**
   * The worker processes of this machine: WORKERS in the primary and in a lone process; in a worker
   * (whose own WORKERS is 1) the primary's count, set for it as SWITCHBOARD_MACHINE_WORKERS. A worker
   * whose primary does not answer limits requests to its share of each limit: limit ÷ this.
   */
  machineWorkers: number;
  /**
   * When the machine's gateway started (unix seconds), as `/api/status` and `/v1/models` report it:
   * set by the primary for its workers (SWITCHBOARD_STARTED_AT) so every worker, a replaced one too,
   * tells the same; otherwise this process's own start.
   */
  startedAt: number;
}

/** One of new-api's fixed-window limits: at most `count` requests per `durationSeconds`, unless disabled. */
export interface RateLimitSetting {
  enabled: boolean;
  count: number;
  durationSeconds: number;
}

export interface RateLimitsConfig {
  /** GLOBAL_API_RATE_LIMIT*: per client address on /api and the legacy billing routes (360 / 180 s). */
  globalApi: RateLimitSetting;
  /** GLOBAL_WEB_RATE_LIMIT*: per client address on console pages (120 / 180 s). */
  globalWeb: RateLimitSetting;
  /** CRITICAL_RATE_LIMIT*: per client address on login, register, reset, OAuth, key reveal, top-up (20 / 1200 s). */
  critical: RateLimitSetting;
  /** SEARCH_RATE_LIMIT*: per user on searches (10 / 60 s). */
  search: RateLimitSetting;
}

export class ConfigError extends Error {
  readonly variable: string;

  constructor(variable: string, detail: string) {
    super(`Invalid configuration: ${variable} ${detail}`);
    this.variable = variable;
  }
}

const port = z.coerce.number().int().min(0).max(65535);
const seconds = z.coerce.number().int().min(0);
const bool = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

type Env = Record<string, string | undefined>;

function read<T>(env: Env, name: string, schema: z.ZodType<T>, fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const parsed = schema.safeParse(raw.trim());
  if (!parsed.success) {
    const reason = parsed.error.issues[0]?.message ?? 'not accepted';
    // A secret is never echoed, not even a wrong one: it may be the right password with a typo around it.
    if (isSecretVariable(name)) throw new ConfigError(name, `has an invalid value (not shown, it is secret): ${reason}`);
    throw new ConfigError(name, `has an invalid value "${raw}": ${reason}`);
  }
  return parsed.data;
}

/** A start-up error as it may be printed: every secret variable's value hidden (see secret-variables.ts). */
export function printableStartupError(message: string, env: Env = process.env): string {
  return hideSecrets(message, env);
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** `auto` (one per core the process may use), or a count from 1 to 64. */
const workersSchema = z.union([z.literal('auto').transform(() => availableParallelism()), z.coerce.number().int().min(1).max(64)]);

function systemTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `<NAME>_ENABLE`, `<NAME>` and `<NAME>_DURATION`, with new-api's names and defaults. */
function readRateLimit(env: Env, name: string, count: number, durationSeconds: number): RateLimitSetting {
  return {
    enabled: read(env, `${name}_ENABLE`, bool, true),
    count: read(env, name, z.coerce.number().int().min(1), count),
    durationSeconds: read(env, `${name}_DURATION`, z.coerce.number().int().min(1), durationSeconds),
  };
}

export function loadConfig(env: Env = process.env): Config {
  const sqlDsn = read(env, 'SQL_DSN', z.string(), '');
  if (sqlDsn && !/^(postgres(ql)?:\/\/|mysql:\/\/|local|[^/]*@tcp\()/.test(sqlDsn)) {
    throw new ConfigError('SQL_DSN', 'must start with postgres://, postgresql://, mysql:// or be a MySQL DSN such as user:pass@tcp(host:3306)/db');
  }
  const explicitSecret = read(env, 'SESSION_SECRET', z.string(), '');
  if (explicitSecret === 'random_string') {
    throw new ConfigError('SESSION_SECRET', "is new-api's example placeholder; set a real secret");
  }
  const sessionSecret = explicitSecret || randomUUID();
  const nodeType = read(env, 'NODE_TYPE', z.enum(['master', 'slave']), 'master');
  const sqlitePath = read(env, 'SQLITE_PATH', z.string(), 'data/switchboard.db');
  const quotaJournalDir = read(env, 'QUOTA_JOURNAL_DIR', z.string(), dirname(sqlitePath));
  const explicitTimeZone = read(env, 'TZ', z.string().refine(isTimeZone, 'is not a time zone Intl knows (e.g. Asia/Shanghai, UTC)'), '');
  let systemZone: string | undefined;
  return {
    port: read(env, 'PORT', port, 3000),
    host: read(env, 'HOST', z.string(), '0.0.0.0'),
    sqlDsn,
    sqlitePath,
    logSqlDsn: read(env, 'LOG_SQL_DSN', z.string(), ''),
    quotaJournalDir: quotaJournalDir === 'off' ? '' : quotaJournalDir,
    redisConnString: read(env, 'REDIS_CONN_STRING', z.string().regex(/^rediss?:\/\//, 'must start with redis:// or rediss://'), ''),
    sessionSecret,
    sessionSecretGenerated: !explicitSecret,
    cryptoSecret: read(env, 'CRYPTO_SECRET', z.string(), '') || sessionSecret,
    syncFrequencySeconds: read(env, 'SYNC_FREQUENCY', z.coerce.number().int().min(1), 60),
    tokenCacheSize: read(env, 'TOKEN_CACHE_SIZE', z.coerce.number().int().min(1), defaultTokenCacheSize),
    userCacheSize: read(env, 'USER_CACHE_SIZE', z.coerce.number().int().min(1), defaultUserCacheSize),
    nodeType,
    streamingTimeoutSeconds: read(env, 'STREAMING_TIMEOUT', seconds, 300),
    relayTimeoutSeconds: read(env, 'RELAY_TIMEOUT', seconds, 0),
    firstByteTimeoutSeconds: read(env, 'RELAY_FIRST_BYTE_TIMEOUT', seconds, 120),
    exportReadTimeoutSeconds: read(env, 'EXPORT_READ_TIMEOUT_SECONDS', z.coerce.number().int().min(1), 60),
    taskTimeoutMinutes: read(env, 'TASK_TIMEOUT_MINUTES', z.coerce.number().int().min(1), 1440),
    taskPollIntervalSeconds: read(env, 'TASK_POLL_INTERVAL_SECONDS', z.coerce.number().int().min(1).max(3600), 15),
    channelTestFrequencyMinutes: read(env, 'CHANNEL_TEST_FREQUENCY', z.coerce.number().int().min(0), 0),
    initialRootPassword: read(env, 'INITIAL_ROOT_PASSWORD', z.string().min(8, 'must be at least 8 characters').max(20, 'must be at most 20 characters'), ''),
    logLevel: read(env, 'LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
    webDistPath: read(env, 'WEB_DIST_PATH', z.string(), ''),
    shutdownTimeoutSeconds: read(env, 'SHUTDOWN_TIMEOUT_SECONDS', seconds, 30),
    trustProxy: read(env, 'TRUST_PROXY', bool, false),
    metricsToken: read(env, 'METRICS_TOKEN', z.string().min(16, 'must be at least 16 characters'), ''),
    outsideEndpoints: loadOutsideEndpoints(env, (variable, detail) => {
      throw new ConfigError(variable, detail);
    }),
    rateLimits: {
      globalApi: readRateLimit(env, 'GLOBAL_API_RATE_LIMIT', 360, 180),
      globalWeb: readRateLimit(env, 'GLOBAL_WEB_RATE_LIMIT', 120, 180),
      critical: readRateLimit(env, 'CRITICAL_RATE_LIMIT', 20, 1200),
      search: readRateLimit(env, 'SEARCH_RATE_LIMIT', 10, 60),
    },
    // Without TZ, the system's zone is asked of Intl on first read (budgets), not here: the first
    // Intl.DateTimeFormat maps ICU's zone and calendar data, about 7 MB of RSS in every process,
    // and the WORKERS primary and a gateway without budgets never need it.
    get timeZone() {
      return explicitTimeZone || (systemZone ??= systemTimeZone());
    },
    tracing: loadTracingConfig(env, (variable, detail) => {
      throw new ConfigError(variable, detail);
    }),
    workers: read(env, 'WORKERS', workersSchema, availableParallelism()),
    machineWorkers: read(env, 'SWITCHBOARD_MACHINE_WORKERS', workersSchema, read(env, 'WORKERS', workersSchema, availableParallelism())),
    startedAt: read(env, 'SWITCHBOARD_STARTED_AT', z.coerce.number().int().positive(), Math.floor(Date.now() / 1000)),
  };
}
