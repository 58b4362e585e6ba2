import type { FastifyInstance } from 'fastify';
import type { Config } from '../../../core/config/config.ts';
import type { DatabaseHandle } from '../../../core/platform/database.ts';
import type { Logger } from '../../../core/platform/logger.ts';
import { JobLeaseRepository } from '../../../core/jobs/job-lease.repository.ts';
import { scheduleLeasedJobs } from '../../../core/jobs/leased-job.ts';
import type { RelayServices } from '../relay-services.ts';
import { channelMonitorJob } from './channel-monitor.ts';
import { ChannelStatusRepository } from './channel-status.repository.ts';
import { registerChannelTestRoutes } from './channel-test.routes.ts';
import { ChannelTestService } from './channel-test.service.ts';

/** A test request waits at least this long, whatever the relay's own header timeout. */
const minimumTestTimeoutMs = 5_000;

/** What the channel tests use beside the relay's services: the status table, the job's lease and schedule, the shutdown. */
export interface ChannelHealthDependencies {
  readonly database: DatabaseHandle;
  readonly logger: Logger;
  readonly config: Pick<Config, 'nodeType' | 'channelTestFrequencyMinutes'>;
  readonly onShutdown: (task: () => Promise<void>) => void;
}

/**
 * The channel tests' one composition: their repository and service, built once, handed to their
 * routes and to the periodic test, which runs on masters only, on one of them at a time.
 */
export function registerChannelHealthModule(app: FastifyInstance, services: RelayServices, dependencies: ChannelHealthDependencies): void {
  const { database, logger, config } = dependencies;
  const tests = new ChannelTestService({
    channels: services.channels,
    health: services.health,
    breakers: services.breakers,
    repository: new ChannelStatusRepository(database.db),
    options: services.options,
    clock: services.clock,
    logger,
    timeoutMs: Math.max(services.timeouts.headersMs, minimumTestTimeoutMs),
  });
  registerChannelTestRoutes(app, tests);
  if (config.nodeType !== 'slave') {
    const job = channelMonitorJob(tests, services.options, config);
    dependencies.onShutdown(scheduleLeasedJobs([job], { leases: new JobLeaseRepository(database.db), clock: services.clock, logger }));
  }
}
