import type { FastifyInstance } from 'fastify';
import type { Config } from '../../core/config/config.ts';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { BalanceChanges } from '../../domain/billing/balance-changes.ts';
import type { LogWriter } from '../../domain/logs/log-writer.repository.ts';
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

/** What the task relays use beside the relay's services: their tables, the poller's settings and lease, the refunds' announcements. */
export interface TaskRelayDependencies {
  readonly database: DatabaseHandle;
  readonly logDatabase: DatabaseHandle;
  readonly logWriter: LogWriter;
  readonly config: Pick<Config, 'taskTimeoutMinutes' | 'taskPollIntervalSeconds' | 'nodeType'>;
  readonly logger: Logger;
  readonly bus: ChangeBus;
  readonly balanceChanges: BalanceChanges;
  readonly onShutdown: (task: () => Promise<void>) => void;
}

/**
 * The task relays (/mj and /suno) on the relay's scope, and the poller that follows their tasks.
 * Slave nodes relay but never poll, as in new-api; the poller starts with the app and stops (giving
 * its lease up) on shutdown.
 */
export function registerTaskRelays(
  scope: FastifyInstance,
  services: RelayServices,
  dependencies: TaskRelayDependencies,
  settings: { timing?: Partial<TaskRelayTiming>; poller?: Partial<TaskPollerTiming> } = {},
): void {
  const { database, logDatabase, logWriter, config, logger, bus, balanceChanges } = dependencies;
  const store = new TaskStoreRepository(database.db, logWriter, logDatabase === database);
  const context: TaskRelayContext = {
    services,
    store,
    refunds: new TaskRefunds({ users: services.users, tokens: services.tokens, balanceChanges, bus }, store),
    timing: { submitTimeoutMs: 60_000, fetchTimeoutMs: 30_000, taskTimeoutMs: config.taskTimeoutMinutes * 60_000, pollBatchSize: 1000, ...settings.timing },
  };
  const midjourney = new MidjourneyRepository(database.db, database.dialect);
  const suno = new SunoRepository(database.db, database.dialect);
  registerMidjourneyRoutes(scope, context, midjourney);
  registerSunoRoutes(scope, context, suno);

  const poller = new TaskPoller({
    pollers: [new MidjourneyPolling(context, midjourney), new SunoPolling(context, suno)],
    leases: new JobLeaseRepository(database.db),
    clock: services.clock,
    logger,
    timing: { ...defaultPollerTiming, intervalMs: config.taskPollIntervalSeconds * 1000, ...settings.poller },
  });
  pollers.set(services, poller);
  if (config.nodeType !== 'slave') dependencies.onShutdown(poller.start());
}
