import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../app-context.ts';
import type { QuotaLedger } from '../billing/quota-ledger.ts';
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

/**
 * Wires budgets onto the ledger (it reports every settled charge to the keeper) and keeps the book in
 * step with console edits on any instance. Call `book.loadAll()` before serving.
 */
export function createRelayBudgets(context: AppContext, ledger: QuotaLedger, instanceId: string): RelayBudgets {
  const repository = new BudgetRepository(context.database.db);
  const book = new BudgetBook(repository);
  const calendar = new PeriodCalendar(() => context.config.timeZone);
  const delivery = new AlertDelivery({
    repository,
    mailer: new Mailer(context.options),
    options: context.options,
    clock: context.clock,
    logger: context.logger,
    outgoing: context.outgoing,
  });
  const alerts = new BudgetAlerts({
    repository,
    delivery,
    options: context.options,
    clock: context.clock,
    logger: context.logger,
    calendar,
  });
  const shared = context.redis ? new SharedBudgetCounter(context.redis) : undefined;
  const keeper = new BudgetKeeper({
    book,
    calendar,
    clock: context.clock,
    repository,
    ledger,
    alerts,
    options: context.options,
    logger: context.logger,
    instanceId,
    ...(shared ? { shared } : {}),
  });
  ledger.watch(keeper);
  const reloadOn = (topic: string, owner: 'token' | 'user') =>
    context.bus.subscribe(topic, (payload) => {
      const id = Number(payload);
      return (payload === '*' || !id ? book.loadAll() : book.reload(owner, id)).catch((error: unknown) =>
        context.logger.warn({ err: error }, 'budget reload failed'),
      );
    });
  reloadOn(changeTopics.tokens, 'token');
  reloadOn(changeTopics.users, 'user');
  context.onShutdown(() => alerts.settled());
  return { keeper, book, alerts, calendar, repository, shared };
}

/** The console's budget and personal notification routes (outside the relay's byte-body scope: they take JSON). */
export function registerBudgetModule(app: FastifyInstance, services: RelayServices): void {
  const { context, budgets } = services;
  const service = new BudgetService({
    repository: budgets.repository,
    calendar: budgets.calendar,
    clock: context.clock,
    bus: context.bus,
    options: context.options,
    outgoing: context.outgoing,
    usedInMemory: (owner, id) => (owner === 'token' ? services.tokens.getById(id)?.usedQuota : services.users.get(id)?.usedQuota),
    ...(budgets.shared
      ? { forgetShared: (owner, id, periodStart) => budgets.shared?.forget(sharedBudgetKey(owner, id, periodStart)) ?? Promise.resolve() }
      : {}),
  });
  registerBudgetRoutes(app, service);
  registerNotifySettingsRoutes(app, new NotifySettingsService({ repository: budgets.repository, bus: context.bus, outgoing: context.outgoing }));
}
