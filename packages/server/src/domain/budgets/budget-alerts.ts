import type { OptionStore } from '../options/option-store.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { Logger } from '../../core/platform/logger.ts';
import type { AlertDelivery, AlertNotice } from './alert-delivery.ts';
import type { BudgetState } from './budget-book.ts';
import type { BudgetRepository } from './budget.repository.ts';
import type { PeriodCalendar } from './budget-period.ts';

/** The shares of a budget that trigger an alert, in percent. */
export const budgetAlertLevels = [50, 80, 100] as const;

/** A low-balance alert at most this often per user, whatever the balance does (top-ups and spending around the line). */
export const balanceAlertQuietSeconds = 600;

/** The highest level crossed by a charge that took the period's use from `before` to `after`, if any. */
export function crossedLevel(before: number, after: number, limit: number): number | undefined {
  let crossed: number | undefined;
  for (const level of budgetAlertLevels) if (before * 100 < level * limit && after * 100 >= level * limit) crossed = level;
  return crossed;
}

/** new-api's rule: warn when a charge takes the balance from at or above the threshold to under it. */
export function balanceCrossed(before: number, after: number, threshold: number): boolean {
  return threshold > 0 && before >= threshold && after < threshold;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * Decides and composes the alerts; the database decides which instance sends (a conditional update
 * of the alert state), so a crossing seen by two instances, or twice, sends one alert.
 */
export class BudgetAlerts {
  private readonly deps: {
    readonly repository: BudgetRepository;
    readonly delivery: AlertDelivery;
    readonly options: OptionStore;
    readonly clock: Clock;
    readonly logger: Logger;
    /** Its zone is read when an alert is written (see PeriodCalendar). */
    readonly calendar: Pick<PeriodCalendar, 'timeZone'>;
  };
  /** Alerts being sent (tests and shutdown wait for them). */
  private readonly sending = new Set<Promise<void>>();

  constructor(deps: BudgetAlerts['deps']) {
    this.deps = deps;
  }

  /** A charge moved a budget's period use from `before` to `after` (period ending at `endMs`). */
  budgetUse(state: BudgetState, userId: number, before: number, after: number, endMs: number): void {
    const level = crossedLevel(before, after, state.limit);
    if (level === undefined) return;
    const periodStart = state.periodStart;
    this.track(async () => {
      if (!(await this.deps.repository.claimBudgetAlert(state.owner, state.id, periodStart, level))) return;
      const name = state.owner === 'token' ? ((await this.deps.repository.tokenOwner(state.id))?.name ?? `#${state.id}`) : '';
      await this.deps.delivery.deliver(userId, this.budgetNotice(state, name, level, after, endMs));
    });
  }

  /** A charge moved a user's balance (without holds in flight) from `before` to `after`. */
  balance(userId: number, before: number, after: number, threshold: number): void {
    if (!balanceCrossed(before, after, threshold)) return;
    const now = this.deps.clock.unixSeconds();
    this.track(async () => {
      if (!(await this.deps.repository.claimBalanceAlert(userId, now, now - balanceAlertQuietSeconds))) return;
      await this.deps.delivery.deliver(userId, this.balanceNotice(after, threshold));
    });
  }

  /** Resolves once every alert started so far is sent (or failed). */
  async settled(): Promise<void> {
    while (this.sending.size > 0) await Promise.all([...this.sending]);
  }

  private track(send: () => Promise<void>): void {
    const running = send()
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'alert failed'))
      .finally(() => this.sending.delete(running));
    this.sending.add(running);
  }

  private money(quota: number): string {
    const perUnit = this.deps.options.getNumber('QuotaPerUnit') || 500_000;
    return `$${(quota / perUnit).toFixed(2)}`;
  }

  private budgetNotice(state: BudgetState, tokenName: string, level: number, use: number, endMs: number): AlertNotice {
    const resets = new Intl.DateTimeFormat('sv-SE', { timeZone: this.deps.calendar.timeZone, dateStyle: 'short', timeStyle: 'short' }).format(endMs);
    const whose = state.owner === 'token' ? `token "${tokenName}"` : 'your account';
    const whoseZh = state.owner === 'token' ? `令牌“${tokenName}”` : '您账户';
    const periodZh = { day: '每日', week: '每周', month: '每月' }[state.period];
    const used = `${this.money(use)} / ${this.money(state.limit)}`;
    const subject = `Budget ${level}% used / 预算已使用 ${level}%`;
    const en = `The ${{ day: 'daily', week: 'weekly', month: 'monthly' }[state.period]} budget of ${whose} has reached ${level}%: ${used} used. It resets at ${resets} (${this.deps.calendar.timeZone}).`;
    const zh = `${whoseZh}的${periodZh}预算已使用 ${level}%：${used}。将于 ${resets}（${this.deps.calendar.timeZone}）重置。`;
    return {
      type: 'budget_threshold',
      subject,
      html: `<p>${escapeHtml(en)}</p><p>${escapeHtml(zh)}</p>`,
      text: `${en}\n${zh}`,
      values: {
        scope: state.owner,
        id: state.id,
        period: state.period,
        level,
        used_quota: use,
        budget_quota: state.limit,
        resets_at: Math.floor(endMs / 1000),
      },
    };
  }

  private balanceNotice(balance: number, threshold: number): AlertNotice {
    const en = `Your balance is ${this.money(balance)}, under the reminder threshold of ${this.money(threshold)}. Top up to keep your requests going.`;
    const zh = `您的余额为 ${this.money(balance)}，已低于提醒阈值 ${this.money(threshold)}，请及时充值以免请求中断。`;
    return {
      type: 'quota_low',
      subject: 'Your balance is running low / 您的额度即将用尽',
      html: `<p>${escapeHtml(en)}</p><p>${escapeHtml(zh)}</p>`,
      text: `${en}\n${zh}`,
      values: { quota: balance, threshold },
    };
  }
}
