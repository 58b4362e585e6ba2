import type { AlertSettingsRequest, BudgetRequest, BudgetView, SelfBudgetView } from '@switchboard/contracts';
import type { CurrentUser } from '../auth/current-user.ts';
import { assertOutranks } from '../auth/outranks.ts';
import { AppError } from '../../core/http/app-error.ts';
import type { OptionStore } from '../options/option-store.ts';
import type { ChangeBus } from '../../core/platform/change-bus.ts';
import { changeTopics } from '../../core/platform/change-topics.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { OutgoingRequests } from '../../core/platform/outgoing/outgoing-requests.ts';
import { readAlertSettings } from './budget-book.ts';
import { budgetMessages } from './budget.messages.ts';
import { isBudgetPeriod, type PeriodCalendar } from './budget-period.ts';
import type { BudgetDisplayRow, BudgetOwner, BudgetRepository } from './budget.repository.ts';
import { userSettingObject } from '../auth/user-setting-object.ts';

export interface BudgetServiceDependencies {
  readonly repository: BudgetRepository;
  readonly calendar: PeriodCalendar;
  readonly clock: Clock;
  readonly bus: ChangeBus;
  readonly options: OptionStore;
  /** Judges a webhook address when it is saved (it is judged again, resolved, at each post). */
  readonly outgoing: Pick<OutgoingRequests, 'assertAllowed'>;
  /** The owner's used quota as the relay holds it (charges not yet written included), if it holds the owner. */
  readonly usedInMemory: (owner: BudgetOwner, id: number) => number | undefined;
  /** With Redis: drops the shared count of a period, for a budget that starts counting again. */
  readonly forgetShared?: (owner: BudgetOwner, id: number, periodStart: number) => Promise<void>;
}

/** Budgets and alert settings in the console: reading them with the period's use, and setting them. */
export class BudgetService {
  private readonly deps: BudgetServiceDependencies;

  constructor(deps: BudgetServiceDependencies) {
    this.deps = deps;
  }

  async tokenBudgets(userId: number): Promise<BudgetView[]> {
    return (await this.deps.repository.tokenDisplays(userId)).map((row) => this.view('token', row));
  }

  async setTokenBudget(userId: number, tokenId: number, input: BudgetRequest): Promise<BudgetView> {
    const row = await this.deps.repository.tokenDisplay(userId, tokenId);
    if (!row) throw new AppError(budgetMessages.tokenNotFound, { status: 404 });
    await this.save('token', row, input);
    const saved = await this.deps.repository.tokenDisplay(userId, tokenId);
    return this.view('token', saved ?? row);
  }

  async selfBudget(userId: number): Promise<SelfBudgetView> {
    const row = await this.deps.repository.userDisplay(userId);
    if (!row) throw new AppError(budgetMessages.userNotFound, { status: 404 });
    const settings = readAlertSettings(row.setting);
    const siteThreshold = this.deps.options.getNumber('QuotaRemindThreshold');
    return {
      ...this.view('user', row),
      quota_warning_threshold: settings.threshold ?? siteThreshold,
      own_threshold: settings.threshold !== undefined,
      webhook_url: settings.webhookUrl,
      webhook_secret_set: settings.webhookSecret !== '',
      site_threshold: siteThreshold,
    };
  }

  /**
   * Stores the settings in users.setting under new-api's names, keeping every other field there. A
   * webhook the outgoing-request policy refuses is refused here, with its reason, and nothing changes.
   */
  async saveAlerts(userId: number, input: AlertSettingsRequest): Promise<void> {
    if (input.webhook_url) this.deps.outgoing.assertAllowed(input.webhook_url);
    const row = await this.deps.repository.userDisplay(userId);
    if (!row) throw new AppError(budgetMessages.userNotFound, { status: 404 });
    const setting = userSettingObject(row.setting);
    if (input.quota_warning_threshold === null) delete setting.quota_warning_threshold;
    else setting.quota_warning_threshold = input.quota_warning_threshold;
    if (input.webhook_url) setting.webhook_url = input.webhook_url;
    else delete setting.webhook_url;
    if (input.webhook_secret) setting.webhook_secret = input.webhook_secret;
    else if (input.webhook_secret === '' || !input.webhook_url) delete setting.webhook_secret;
    await this.deps.repository.saveUserSetting(userId, JSON.stringify(setting));
    await this.deps.bus.publish(changeTopics.users, String(userId));
  }

  async userBudget(actor: CurrentUser, userId: number): Promise<BudgetView> {
    const row = await this.deps.repository.userDisplay(userId);
    if (!row) throw new AppError(budgetMessages.userNotFound, { status: 404 });
    if (actor.id !== userId) assertOutranks(actor.role, row.role, budgetMessages.noPermission);
    return this.view('user', row);
  }

  async setUserBudget(actor: CurrentUser, userId: number, input: BudgetRequest): Promise<BudgetView> {
    const row = await this.deps.repository.userDisplay(userId);
    if (!row) throw new AppError(budgetMessages.userNotFound, { status: 404 });
    assertOutranks(actor.role, row.role, budgetMessages.noPermission);
    await this.save('user', row, input);
    return this.view('user', (await this.deps.repository.userDisplay(userId)) ?? row);
  }

  /**
   * A budget that is new, changes its period kind or was idle since before this period counts from
   * now; one only resized keeps what its period already used.
   */
  private async save(owner: BudgetOwner, row: BudgetDisplayRow, input: BudgetRequest): Promise<void> {
    const quota = input.budget_period === '' ? 0 : input.budget_quota;
    const period = quota === 0 ? '' : input.budget_period;
    const periodStart = isBudgetPeriod(period) ? Math.floor(this.deps.calendar.current(period, this.deps.clock.now()).start / 1000) : 0;
    const restart = row.budget_quota <= 0 || row.budget_period !== period || row.budget_period_start !== periodStart;
    const usedQuota = this.deps.usedInMemory(owner, row.id) ?? row.used_quota;
    await this.deps.repository.setBudget(owner, row.id, { quota, period }, { periodStart, usedQuota, restart });
    if (restart && periodStart > 0) await this.deps.forgetShared?.(owner, row.id, periodStart);
    await this.deps.bus.publish(owner === 'token' ? changeTopics.tokens : changeTopics.users, String(row.id));
  }

  private view(owner: BudgetOwner, row: BudgetDisplayRow): BudgetView {
    const none = { id: row.id, name: row.name, budget_quota: 0, budget_period: '' as const, period_used: 0, period_start: 0, period_end: 0 };
    if (row.budget_quota <= 0 || !isBudgetPeriod(row.budget_period)) return none;
    const window = this.deps.calendar.current(row.budget_period, this.deps.clock.now());
    const start = Math.floor(window.start / 1000);
    const used = this.deps.usedInMemory(owner, row.id) ?? row.used_quota;
    return {
      ...none,
      budget_quota: row.budget_quota,
      budget_period: row.budget_period,
      // A period nobody spent in yet has no recorded start: its use is 0.
      period_used: row.budget_period_start === start ? Math.max(0, used - row.budget_used_base) : 0,
      period_start: start,
      period_end: Math.floor(window.end / 1000),
    };
  }
}
