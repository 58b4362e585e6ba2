import type { FastifyInstance } from 'fastify';
import type { RelayServices } from '../relay/relay-services.ts';
import { MidjourneyPolling } from './midjourney/midjourney-polling.ts';
import { registerMidjourneyRoutes } from './midjourney/midjourney.routes.ts';
import { MidjourneyRepository } from './midjourney/midjourney.repository.ts';
import { SunoPolling } from './suno/suno-polling.ts';
import { registerSunoRoutes } from './suno/suno.routes.ts';
import { SunoRepository } from './suno/suno.repository.ts';
import { TaskRefunds } from './task-billing.ts';
import { JobLeaseRepository } from '../../core/jobs/job-lease.repository.ts';
import { defaultPollerTiming, TaskPoller, type TaskPollerTiming } from './task-poller.ts';
import type { TaskRelayContext, TaskRelayTiming } from './task-relay-context.ts';
import { TaskStoreRepository } from './task-store.repository.ts';

/** Each app's poller, by its relay services (the relay scope is encapsulated, so no root decorator). */
const pollers = new WeakMap<RelayServices, TaskPoller>();

/** The app's task poller: tests run a pass with `pollOnce` instead of waiting for the timer. */
export function taskPollerOf(services: RelayServices): TaskPoller {
  const poller = pollers.get(services);
  if (!poller) throw new Error('the task relays are not registered');
  return poller;
}

/**
 * The task relays (/mj and /suno) on the relay's scope, and the poller that follows their tasks.
 * Slave nodes relay but never poll, as in new-api; the poller starts with the app and stops (giving
 * its lease up) on shutdown.
 */
export function registerTaskRelays(
  scope: FastifyInstance,
  services: RelayServices,
  settings: { timing?: Partial<TaskRelayTiming>; poller?: Partial<TaskPollerTiming> } = {},
): void {
  const { database, logDatabase, logWriter, config, clock, logger } = services.context;
  const store = new TaskStoreRepository(database.db, logWriter, logDatabase === database);
  const context: TaskRelayContext = {
    services,
    store,
    refunds: new TaskRefunds(services, store),
    timing: { submitTimeoutMs: 60_000, fetchTimeoutMs: 30_000, taskTimeoutMs: config.taskTimeoutMinutes * 60_000, pollBatchSize: 1000, ...settings.timing },
  };
  const midjourney = new MidjourneyRepository(database.db, database.dialect);
  const suno = new SunoRepository(database.db, database.dialect);
  registerMidjourneyRoutes(scope, context, midjourney);
  registerSunoRoutes(scope, context, suno);

  const poller = new TaskPoller({
    pollers: [new MidjourneyPolling(context, midjourney), new SunoPolling(context, suno)],
    leases: new JobLeaseRepository(database.db),
    clock,
    logger,
    timing: { ...defaultPollerTiming, intervalMs: config.taskPollIntervalSeconds * 1000, ...settings.poller },
  });
  pollers.set(services, poller);
  if (config.nodeType !== 'slave') services.context.onShutdown(poller.start());
}
