import type { Reservation, ReservationAttachment, SettleWatcher } from '../billing/quota-ledger.ts';
import type { OptionStore } from '../options/option-store.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import { RelayError } from '../../core/http/relay-error.ts';
import type { BudgetAlerts } from './budget-alerts.ts';
import type { BudgetBook, BudgetState } from './budget-book.ts';
import { budgetMessages } from './budget.messages.ts';
import type { PeriodCalendar, PeriodWindow } from './budget-period.ts';
import type { BudgetRepository } from './budget.repository.ts';
import { sharedBudgetKey, type SharedBudgetCounter, type SharedBudgetSlot } from './shared-budget-counter.ts';

/** A hold left in Redis by an instance that died is given back after this long. */
const holdLifetimeMs = 3_600_000;

/** A budget that applies to one request: its state, the balance whose used quota it follows, its period. */
interface Budgeted {
  readonly state: BudgetState;
  readonly balance: { readonly usedQuota: number };
  readonly window: PeriodWindow;
}

export interface BudgetKeeperDependencies {
  readonly book: BudgetBook;
  readonly calendar: PeriodCalendar;
  readonly clock: Clock;
  readonly repository: BudgetRepository;
  readonly ledger: { refund(reservation: Reservation): void; heldOnUser(id: number): number };
  readonly alerts: BudgetAlerts;
  readonly options: OptionStore;
  readonly logger: Logger;
  /** With Redis: the period use and holds every instance shares. */
  readonly shared?: SharedBudgetCounter;
  /** Names this instance's holds in Redis. */
  readonly instanceId: string;
}

/**
 * Spending budgets on the relay's hold/settle path. A request with a budgeted token or user holds its
 * worst case against each budget beside its quota hold; settling gives the hold back and the charge
 * counts in the period's use, a refund only gives it back. A budget is refused once its use plus the
 * holds in flight reach it, so concurrency never overspends by more than the one request admitted at
 * the edge. The period's use is the owner's used quota since the period began (the ledger already
 * counts it, exactly, once per charge); with Redis, use and holds live there, shared by instances.
 */
export class BudgetKeeper implements SettleWatcher {
  private readonly deps: BudgetKeeperDependencies;
  private holdCount = 0;
  private redisWarned = false;

  constructor(deps: BudgetKeeperDependencies) {
    this.deps = deps;
  }

  /**
   * Holds the request's worst case on its token's and user's budgets. Nothing to do (undefined, and no
   * work beyond two map lookups) without a budget; a promise while Redis answers. A refusal refunds
   * the quota hold and throws the caller's 429.
   */
  hold(reservation: Reservation, worstCase: number): Promise<void> | undefined {
    const { book, shared } = this.deps;
    if (book.empty) return undefined;
    const nowMs = this.deps.clock.now();
    const budgets = this.budgetsOf(reservation, nowMs);
    if (budgets.length === 0) return undefined;
    const worst = Math.max(worstCase, reservation.amount);
    if (shared?.ready) return this.holdShared(shared, reservation, budgets, worst, nowMs);
    this.holdLocally(reservation, budgets, worst);
    return undefined;
  }

  /** Every settled charge: the low-balance alert, and the budgets of charges that held none (tasks, realtime). */
  settled(reservation: Reservation, finalQuota: number): void {
    const { user } = reservation;
    const { book, options, ledger, alerts, shared } = this.deps;
    const threshold = book.threshold(user.id) ?? options.getNumber('QuotaRemindThreshold');
    if (threshold > 0 && finalQuota > 0) {
      const after = user.quota + ledger.heldOnUser(user.id);
      alerts.balance(user.id, after + finalQuota, after, threshold);
    }
    if (reservation.attachment || book.empty || finalQuota === 0) return;
    const budgets = this.budgetsOf(reservation, this.deps.clock.now());
    if (budgets.length === 0) return;
    if (shared?.ready) void this.settleShared(shared, budgets, user.id, '', 0, finalQuota);
    else this.alertLocally(budgets, user.id, finalQuota);
  }

  /** The budgets a reservation counts against: its token's, then its user's, each in its current period. */
  private budgetsOf(reservation: Reservation, nowMs: number): Budgeted[] {
    const { book } = this.deps;
    const budgets: Budgeted[] = [];
    const tokenState = reservation.token ? book.token(reservation.token.id) : undefined;
    if (tokenState && reservation.token) budgets.push(this.budgeted(tokenState, reservation.token, nowMs));
    const userState = book.user(reservation.user.id);
    if (userState) budgets.push(this.budgeted(userState, reservation.user, nowMs));
    return budgets;
  }

  /** The budget's current period; the first request of a new one records where its use starts. */
  private budgeted(state: BudgetState, balance: { readonly usedQuota: number }, nowMs: number): Budgeted {
    const window = this.deps.calendar.current(state.period, nowMs);
    const start = Math.floor(window.start / 1000);
    if (state.periodStart < start) {
      state.periodStart = start;
      state.base = balance.usedQuota;
      void this.deps.repository
        .startPeriod(state.owner, state.id, start, balance.usedQuota)
        .catch((error: unknown) => this.deps.logger.warn({ err: error, owner: state.owner, id: state.id }, 'budget period start not recorded'));
    }
    return { state, balance, window };
  }

  private holdLocally(reservation: Reservation, budgets: readonly Budgeted[], worst: number): void {
    for (const budget of budgets) {
      const { state, balance } = budget;
      if (state.limit - (balance.usedQuota - state.base) - state.pending <= 0) this.refuse(reservation, budget);
    }
    for (const { state } of budgets) state.pending += worst;
    reservation.attachment = new LocalBudgetHold(this, budgets, reservation.user.id, worst);
  }

  private async holdShared(shared: SharedBudgetCounter, reservation: Reservation, budgets: readonly Budgeted[], worst: number, nowMs: number): Promise<void> {
    const member = `${this.deps.instanceId}.${(this.holdCount += 1)}`;
    let refusedAt: number;
    try {
      refusedAt = await shared.reserve(this.slots(budgets), {
        member,
        worst,
        nowMs,
        expiresAtMs: nowMs + holdLifetimeMs,
        ttlSeconds: ttlSeconds(budgets, nowMs),
      });
    } catch (error) {
      this.warnRedis(error);
      this.holdLocally(reservation, budgets, worst);
      return;
    }
    const refusing = budgets[refusedAt - 1];
    if (refusing) this.refuse(reservation, refusing);
    reservation.attachment = new SharedBudgetHold(this, shared, budgets, reservation.user.id, member, worst);
  }

  /** @internal Ends a local hold (see LocalBudgetHold). */
  endLocal(budgets: readonly Budgeted[], userId: number, worst: number, finalQuota: number | undefined): void {
    for (const { state } of budgets) state.pending -= worst;
    if (finalQuota !== undefined && finalQuota > 0) this.alertLocally(budgets, userId, finalQuota);
  }

  /** @internal Ends a hold in Redis, adding the charge to the shared use (`member` '' when none was held). */
  async settleShared(shared: SharedBudgetCounter, budgets: readonly Budgeted[], userId: number, member: string, worst: number, charge: number): Promise<void> {
    const nowMs = this.deps.clock.now();
    let uses: number[];
    try {
      uses = await shared.settle(this.slots(budgets), { member, worst, charge, ttlSeconds: ttlSeconds(budgets, nowMs) });
    } catch (error) {
      // The hold expires in Redis on its own; the charge is in the database and counts from there
      // when Redis has to start the period's use again.
      this.warnRedis(error);
      return;
    }
    if (charge <= 0) return;
    budgets.forEach((budget, index) => {
      const after = uses[index] ?? 0;
      this.deps.alerts.budgetUse(budget.state, userId, after - charge, after, budget.window.end);
    });
  }

  private alertLocally(budgets: readonly Budgeted[], userId: number, charge: number): void {
    for (const { state, balance } of budgets) {
      const after = balance.usedQuota - state.base;
      this.deps.alerts.budgetUse(state, userId, after - charge, after, this.deps.calendar.current(state.period, this.deps.clock.now()).end);
    }
  }

  private slots(budgets: readonly Budgeted[]): SharedBudgetSlot[] {
    return budgets.map(({ state, balance }) => ({
      key: sharedBudgetKey(state.owner, state.id, state.periodStart),
      limit: state.limit,
      knownUse: Math.max(0, balance.usedQuota - state.base),
    }));
  }

  private refuse(reservation: Reservation, { state, window }: Budgeted): never {
    this.deps.ledger.refund(reservation);
    const resetAt = new Intl.DateTimeFormat('sv-SE', { timeZone: this.deps.calendar.timeZone, dateStyle: 'short', timeStyle: 'short' }).format(window.end);
    const message = state.owner === 'token' ? budgetMessages.tokenBudgetExceeded : budgetMessages.userBudgetExceeded;
    throw new RelayError(429, `${state.owner}_budget_exceeded`, message, {
      type: 'insufficient_quota',
      params: { period: state.period, resetAt: `${resetAt} ${this.deps.calendar.timeZone}` },
    });
  }

  private warnRedis(error: unknown): void {
    if (this.redisWarned) return;
    this.redisWarned = true;
    this.deps.logger.warn({ err: error }, 'Redis unreachable: budgets are counted on this instance alone until it answers again');
  }
}

/** Redis keys live until a day after their period ends. */
function ttlSeconds(budgets: readonly Budgeted[], nowMs: number): number {
  const end = Math.max(...budgets.map((budget) => budget.window.end));
  return Math.max(60, Math.ceil((end - nowMs) / 1000) + 86_400);
}

class LocalBudgetHold implements ReservationAttachment {
  private readonly keeper: BudgetKeeper;
  private readonly budgets: readonly Budgeted[];
  private readonly userId: number;
  private readonly worst: number;

  constructor(keeper: BudgetKeeper, budgets: readonly Budgeted[], userId: number, worst: number) {
    this.keeper = keeper;
    this.budgets = budgets;
    this.userId = userId;
    this.worst = worst;
  }

  end(finalQuota: number | undefined): void {
    this.keeper.endLocal(this.budgets, this.userId, this.worst, finalQuota);
  }
}

class SharedBudgetHold implements ReservationAttachment {
  private readonly keeper: BudgetKeeper;
  private readonly shared: SharedBudgetCounter;
  private readonly budgets: readonly Budgeted[];
  private readonly userId: number;
  private readonly member: string;
  private readonly worst: number;

  constructor(keeper: BudgetKeeper, shared: SharedBudgetCounter, budgets: readonly Budgeted[], userId: number, member: string, worst: number) {
    this.keeper = keeper;
    this.shared = shared;
    this.budgets = budgets;
    this.userId = userId;
    this.member = member;
    this.worst = worst;
  }

  end(finalQuota: number | undefined): void {
    void this.keeper.settleShared(this.shared, this.budgets, this.userId, this.member, this.worst, finalQuota ?? 0);
  }
}
