import type { FastifyInstance } from 'fastify';
import type { Config } from '../../core/config/config.ts';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { OutgoingRequests } from '../../core/platform/outgoing/outgoing-requests.ts';
import type { Redis } from '../../core/platform/redis.ts';
import type { QuotaLedger } from '../billing/quota-ledger.ts';
import type { OptionStore } from '../options/option-store.ts';
import { changeTopics } from '../../core/platform/change-topics.ts';
import { Mailer } from '../../core/platform/mailer.ts';
import type { RelayServices } from '../../entry/relay/relay-services.ts';
import { AlertDelivery } from './alert-delivery.ts';
import { BudgetAlerts } from './budget-alerts.ts';
import { BudgetBook } from './budget-book.ts';
import { BudgetKeeper } from './budget-keeper.ts';
import { PeriodCalendar } from './budget-period.ts';
import { BudgetRepository } from './budget.repository.ts';
import { registerBudgetRoutes } from './budget.routes.ts';
import { BudgetService } from './budget.service.ts';
import { registerNotifySettingsRoutes } from './notify-settings.routes.ts';
import { NotifySettingsService } from './notify-settings.service.ts';
import { SharedBudgetCounter, sharedBudgetKey } from './shared-budget-counter.ts';

/** The relay's budgets: what it holds against them, and the alerts of budgets and balances. */
export interface RelayBudgets {
  readonly keeper: BudgetKeeper;
  readonly book: BudgetBook;
  readonly alerts: BudgetAlerts;
  readonly calendar: PeriodCalendar;
  readonly repository: BudgetRepository;
  readonly shared: SharedBudgetCounter | undefined;
}

/** What the relay's budgets are built from: their table, settings, alert channels and the shared counters. */
export interface RelayBudgetDependencies {
  readonly database: DatabaseHandle;
  readonly config: Pick<Config, 'timeZone'>;
  readonly options: OptionStore;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly outgoing: OutgoingRequests;
  /** Budgets shared between instances when configured. */
  readonly redis?: Redis;
  readonly bus: ChangeBus;
  readonly onShutdown: (task: () => Promise<void>) => void;
}

/**
 * Wires budgets onto the ledger (it reports every settled charge to the keeper) and keeps the book in
 * step with console edits on any instance. Call `book.loadAll()` before serving.
 */
export function createRelayBudgets(dependencies: RelayBudgetDependencies, ledger: QuotaLedger, instanceId: string): RelayBudgets {
  const repository = new BudgetRepository(dependencies.database.db);
  const book = new BudgetBook(repository);
  const calendar = new PeriodCalendar(() => dependencies.config.timeZone);
  const delivery = new AlertDelivery({
    repository,
    mailer: new Mailer(dependencies.options),
    options: dependencies.options,
    clock: dependencies.clock,
    logger: dependencies.logger,
    outgoing: dependencies.outgoing,
  });
  const alerts = new BudgetAlerts({
    repository,
    delivery,
    options: dependencies.options,
    clock: dependencies.clock,
    logger: dependencies.logger,
    calendar,
  });
  const shared = dependencies.redis ? new SharedBudgetCounter(dependencies.redis) : undefined;
  const keeper = new BudgetKeeper({
    book,
    calendar,
    clock: dependencies.clock,
    repository,
    ledger,
    alerts,
    options: dependencies.options,
    logger: dependencies.logger,
    instanceId,
    ...(shared ? { shared } : {}),
  });
  ledger.watch(keeper);
  const reloadOn = (topic: string, owner: 'token' | 'user') =>
    dependencies.bus.subscribe(topic, (payload) => {
      const id = Number(payload);
      return (payload === '*' || !id ? book.loadAll() : book.reload(owner, id)).catch((error: unknown) =>
        dependencies.logger.warn({ err: error }, 'budget reload failed'),
      );
    });
  reloadOn(changeTopics.tokens, 'token');
  reloadOn(changeTopics.users, 'user');
  dependencies.onShutdown(() => alerts.settled());
  return { keeper, book, alerts, calendar, repository, shared };
}

/**
 * The console's budget and personal notification routes (outside the relay's byte-body scope: they
 * take JSON). `bus` tells every instance of an edited budget.
 */
export function registerBudgetModule(app: FastifyInstance, services: RelayServices, bus: ChangeBus): void {
  const { budgets, clock, options, outgoing } = services;
  const service = new BudgetService({
    repository: budgets.repository,
    calendar: budgets.calendar,
    clock,
    bus,
    options,
    outgoing,
    usedInMemory: (owner, id) => (owner === 'token' ? services.tokens.getById(id)?.usedQuota : services.users.get(id)?.usedQuota),
    ...(budgets.shared
      ? { forgetShared: (owner, id, periodStart) => budgets.shared?.forget(sharedBudgetKey(owner, id, periodStart)) ?? Promise.resolve() }
      : {}),
  });
  registerBudgetRoutes(app, service);
  registerNotifySettingsRoutes(app, new NotifySettingsService({ repository: budgets.repository, bus, outgoing }));
}
