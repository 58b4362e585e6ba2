import type { Config } from '../../core/config/config.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { OptionStore } from '../../domain/options/option-store.ts';
import { ChannelRepository } from './channel/channel.repository.ts';
import { ChannelUpstreamService } from './channel/channel-upstream.service.ts';
import { ChannelStatsRepository } from './data/channel-stats.repository.ts';
import { quotaDataJob } from './data/quota-data-aggregator.ts';
import { QuotaDataRepository } from './data/quota-data.repository.ts';
import { logHourlyJob } from './log/log-hourly-rollup.ts';
import { logHourlyRepositories } from './log/log-hourly.repository.ts';
import { purgeLogsBefore } from './log/log-purge.ts';
import { LogRepository } from './log/log.repository.ts';
import {
  networkRollUpPace,
  ownTurns,
  type RollUpPace,
  sqliteRollUpPace,
  takingTurns,
  trailingLogAggregationJob,
} from '../../domain/logs/log-cursor-aggregation.ts';
import { applyPayloadRetention } from '../../domain/logs/payloads/payload-retention.ts';
import { JobLeaseRepository } from '../../core/jobs/job-lease.repository.ts';
import type { RepeatingJob } from '../../core/jobs/job-scheduler.ts';
import { scheduleLeasedJobs } from '../../core/jobs/leased-job.ts';

const minute = 60_000;
/**
 * How often the log roll-ups run. On SQLite a run may go up to the newest log (ids commit in their
 * order) and its batches hold the event loop one at a time, so shorter runs mean smaller bursts and
 * fewer logs past the roll-ups' cursors for the log page's totals and the dashboard to read one by one
 * (at 9,000 requests a second, a minute's worth is half a million). Elsewhere a run trails the
 * previous one's newest log, so the interval is also the time a commit out of id order has to land.
 */
const rollUpIntervalMs = { sqlite: 15_000, network: minute };
/** One retention run deletes at most this many batches, so a large backlog is worked off over several runs. */
const retentionBatchesPerRun = 50;

/** What the operations jobs use: both databases, the intervals in the options, the clock, the leases' log and shutdown. */
export interface OperationsJobsDependencies {
  readonly database: DatabaseHandle;
  /** The database holding `logs` (the main one unless LOG_SQL_DSN is set). */
  readonly logDatabase: DatabaseHandle;
  readonly options: OptionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly config: Pick<Config, 'nodeType'>;
  readonly onShutdown: (task: () => Promise<void>) => void;
}

/** Deletes logs older than LogRetentionDays (0 keeps them forever), in bounded batches. */
export async function applyLogRetention(context: Pick<OperationsJobsDependencies, 'options' | 'clock' | 'logDatabase'>): Promise<number> {
  const days = context.options.getNumber('LogRetentionDays');
  if (days <= 0) return 0;
  const cutoff = context.clock.unixSeconds() - days * 86_400;
  const repositories = { logs: new LogRepository(context.logDatabase.db), hourly: logHourlyRepositories(context.logDatabase.db, context.logDatabase.dialect) };
  return purgeLogsBefore(repositories, cutoff, context.clock.unixSeconds(), { maxBatches: retentionBatchesPerRun });
}

/**
 * The operations side's background work: the log roll-ups (every 15 s on SQLite, every minute on the
 * other engines, each on its own cursor, for fast log stats by model, by channel or group, and by user
 * or token), hourly usage for the dashboard (every DataExportInterval minutes while DataExportEnabled),
 * log retention, and channel balances (every ChannelUpdateFrequency minutes when set). Each interval
 * is read again after every run, so an option change applies without a restart. Exported so the
 * schedule can be tested without timers.
 */
export function operationsJobs(context: Omit<OperationsJobsDependencies, 'logger' | 'config' | 'onShutdown'>): RepeatingJob[] {
  const options = context.options;
  const [byModel, byChannelGroup, byUserToken] = logHourlyRepositories(context.logDatabase.db, context.logDatabase.dialect);
  const quotaData = new QuotaDataRepository(context.database.db, context.logDatabase.db);
  const channels = new ChannelUpstreamService(new ChannelRepository(context.database.db, context.database.dialect), context.clock);
  const logsOnSqlite = context.logDatabase.dialect === 'sqlite';
  const logPace = logsOnSqlite ? sqliteRollUpPace : networkRollUpPace;
  const rollUpEvery = logsOnSqlite ? rollUpIntervalMs.sqlite : rollUpIntervalMs.network;
  // The hourly usage lives in the main database and reads the logs: it holds the event loop if either is SQLite.
  const quotaDataPace: RollUpPace = {
    pacing: logsOnSqlite || context.database.dialect === 'sqlite' ? takingTurns : ownTurns,
    idsCommitInOrder: logPace.idsCommitInOrder,
  };
  return [
    {
      name: 'quota-data',
      intervalMs: () => (options.getBoolean('DataExportEnabled') ? Math.max(1, options.getNumber('DataExportInterval')) * minute : 0),
      run: quotaDataJob(quotaData, context.clock, quotaDataPace),
    },
    { name: 'log-hourly', intervalMs: () => rollUpEvery, run: logHourlyJob(byModel, context.clock, logPace) },
    { name: 'log-hourly-channel-group', intervalMs: () => rollUpEvery, run: logHourlyJob(byChannelGroup, context.clock, logPace) },
    // Per day, user and token name, and per day, user and model (migrations 0036, 0037): a heavy user's
    // totals, alone or with a token name or a model. On upgrade (and again on 0037) it counts the
    // existing logs from id 0 in batches of 2,000, yielding between them.
    { name: 'log-daily-user', intervalMs: () => rollUpEvery, run: logHourlyJob(byUserToken, context.clock, logPace) },
    // The dashboard's per-channel view (calls, errors, latency percentiles, cost), migration 0023.
    {
      name: 'log-hourly-channel-latency',
      intervalMs: () => rollUpEvery,
      run: trailingLogAggregationJob(new ChannelStatsRepository(context.logDatabase.db), context.clock, logPace),
    },
    { name: 'log-retention', intervalMs: () => (options.getNumber('LogRetentionDays') > 0 ? 10 * minute : 0), run: () => applyLogRetention(context) },
    // Stored request and response bodies (logs/payloads/), older than LogPayloadRetentionDays.
    { name: 'payload-retention', intervalMs: () => 10 * minute, run: () => applyPayloadRetention(context) },
    { name: 'channel-balance', intervalMs: () => options.getNumber('ChannelUpdateFrequency') * minute, run: () => channels.refreshAllBalances() },
  ];
}

/** Slave nodes run none of the jobs; of several masters sharing a database, each job runs on the one holding its lease. */
export function startOperationsJobs(context: OperationsJobsDependencies): void {
  if (context.config.nodeType === 'slave') return;
  const leases = new JobLeaseRepository(context.database.db);
  context.onShutdown(scheduleLeasedJobs(operationsJobs(context), { leases, clock: context.clock, logger: context.logger }));
}
