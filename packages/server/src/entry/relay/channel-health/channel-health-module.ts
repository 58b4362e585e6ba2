import type { FastifyInstance } from 'fastify';
import { JobLeaseRepository } from '../../../core/jobs/job-lease.repository.ts';
import { scheduleLeasedJobs } from '../../../core/jobs/leased-job.ts';
import type { RelayServices } from '../relay-services.ts';
import { channelMonitorJob } from './channel-monitor.ts';
import { ChannelStatusRepository } from './channel-status.repository.ts';
import { registerChannelTestRoutes } from './channel-test.routes.ts';
import { ChannelTestService } from './channel-test.service.ts';

/** A test request waits at least this long, whatever the relay's own header timeout. */
const minimumTestTimeoutMs = 5_000;

/**
 * The channel tests' one composition: their repository and service, built once, handed to their
 * routes and to the periodic test, which runs on masters only, on one of them at a time.
 */
export function registerChannelHealthModule(app: FastifyInstance, services: RelayServices): void {
  const { context } = services;
  const tests = new ChannelTestService({
    channels: services.channels,
    health: services.health,
    breakers: services.breakers,
    repository: new ChannelStatusRepository(context.database.db),
    options: context.options,
    clock: context.clock,
    logger: context.logger,
    timeoutMs: Math.max(services.timeouts.headersMs, minimumTestTimeoutMs),
  });
  registerChannelTestRoutes(app, tests);
  if (context.config.nodeType !== 'slave') {
    const job = channelMonitorJob(tests, context.options, context.config);
    context.onShutdown(scheduleLeasedJobs([job], { leases: new JobLeaseRepository(context.database.db), clock: context.clock, logger: context.logger }));
  }
}
