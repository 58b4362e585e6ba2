import { safeParseJson } from '../../core/platform/safe-json.ts';
import { ReloadFreshness } from '../../core/platform/reload-freshness.ts';
import { isBudgetPeriod, type BudgetPeriod } from './budget-period.ts';
import type { BudgetOwner, BudgetRepository, BudgetRow } from './budget.repository.ts';

/** One token's or user's budget as the relay keeps it; changed in place so holds in flight follow it. */
export interface BudgetState {
  readonly owner: BudgetOwner;
  readonly id: number;
  /** Quota units per period. */
  limit: number;
  period: BudgetPeriod;
  /** Unix seconds: the start of the period `base` belongs to. */
  periodStart: number;
  /** The owner's used quota at `periodStart`: the period's use is `usedQuota - base`. */
  base: number;
  /** Worst cases of this instance's holds in flight (without Redis, or when Redis is unreachable). */
  pending: number;
}

/** A user's own alert settings (users.setting JSON, new-api's names). */
export interface AlertSettings {
  /** `quota_warning_threshold`: the balance under which the user is warned (else QuotaRemindThreshold). */
  readonly threshold: number | undefined;
  readonly webhookUrl: string;
  readonly webhookSecret: string;
  /** `notification_email`: where alert mail goes instead of the account's address (new-api's e-mail notify type). */
  readonly notificationEmail: string;
}

/** The alert settings in a user's `setting` text (invalid or missing fields read as unset). */
export function readAlertSettings(setting: string | null | undefined): AlertSettings {
  const parsed = setting ? safeParseJson(setting) : undefined;
  const value = parsed?.ok && typeof parsed.value === 'object' && parsed.value !== null ? (parsed.value as Record<string, unknown>) : {};
  const threshold = value.quota_warning_threshold;
  return {
    threshold: typeof threshold === 'number' && Number.isFinite(threshold) && threshold >= 0 ? threshold : undefined,
    webhookUrl: typeof value.webhook_url === 'string' ? value.webhook_url : '',
    webhookSecret: typeof value.webhook_secret === 'string' ? value.webhook_secret : '',
    notificationEmail: typeof value.notification_email === 'string' ? value.notification_email : '',
  };
}

/**
 * The budgets of this instance, by token and by user, plus the users' own warning thresholds. Only
 * owners with a budget are here, so a relay without budgets checks two empty maps and nothing else.
 * Loaded at start, reloaded per id when the change bus says a token or user changed.
 */
export class BudgetBook {
  private readonly states: Record<BudgetOwner, Map<number, BudgetState>> = { token: new Map(), user: new Map() };
  private readonly thresholds = new Map<number, number>();
  private readonly repository: BudgetRepository;
  /**
   * A full reload reads every budget at once and can answer after a change's single re-read applied a
   * newer row (the change bus re-reads one owner after each write): the older row must not win, or an
   * edited budget would be back to its old limit until the next reload. Users' settings are re-read
   * with their budgets, so the user marks cover both.
   */
  private readonly freshness: Record<BudgetOwner, ReloadFreshness> = { token: new ReloadFreshness(), user: new ReloadFreshness() };

  constructor(repository: BudgetRepository) {
    this.repository = repository;
  }

  get empty(): boolean {
    return this.states.token.size === 0 && this.states.user.size === 0;
  }

  token(id: number): BudgetState | undefined {
    return this.states.token.get(id);
  }

  user(id: number): BudgetState | undefined {
    return this.states.user.get(id);
  }

  /** The user's own low-balance threshold, when the user set one. */
  threshold(userId: number): number | undefined {
    return this.thresholds.get(userId);
  }

  async loadAll(): Promise<void> {
    const since = { token: this.freshness.token.wideReadStarting(), user: this.freshness.user.wideReadStarting() };
    try {
      const [tokens, users, settings] = await Promise.all([
        this.repository.allBudgets('token'),
        this.repository.allBudgets('user'),
        this.repository.usersWithAlertSettings(),
      ]);
      const fresher = (owner: BudgetOwner) => (id: number) => this.freshness[owner].isFresher(id, since[owner]);
      this.replaceAll('token', tokens, fresher('token'));
      this.replaceAll('user', users, fresher('user'));
      this.replaceThresholds(settings, fresher('user'));
    } finally {
      this.freshness.token.wideReadDone(since.token);
      this.freshness.user.wideReadDone(since.user);
    }
  }

  async reload(owner: BudgetOwner, id: number): Promise<void> {
    const freshness = this.freshness[owner];
    const read = freshness.rereading(id);
    try {
      const [row, setting] = await Promise.all([this.repository.budget(owner, id), owner === 'user' ? this.repository.userSetting(id) : undefined]);
      // A later change's re-read started meanwhile: its row is the newer one and applies instead.
      if (!freshness.isNewestReread(id, read)) return;
      if (row) this.apply(owner, row);
      else this.states[owner].delete(id);
      if (owner === 'user') this.applySetting(id, setting?.setting ?? null);
    } finally {
      freshness.rereadDone(id);
    }
  }

  /** Takes the full read's rows, except for owners re-read since it started (`fresher`): theirs are newer. */
  private replaceAll(owner: BudgetOwner, rows: BudgetRow[], fresher: (id: number) => boolean): void {
    const seen = new Set<number>();
    for (const row of rows) if (fresher(row.id) || this.apply(owner, row)) seen.add(row.id);
    for (const id of [...this.states[owner].keys()]) if (!seen.has(id) && !fresher(id)) this.states[owner].delete(id);
  }

  private replaceThresholds(settings: ReadonlyArray<{ id: number; setting: string | null }>, fresher: (id: number) => boolean): void {
    const kept = [...this.thresholds].filter(([userId]) => fresher(userId));
    this.thresholds.clear();
    for (const row of settings) if (!fresher(row.id)) this.applySetting(row.id, row.setting);
    for (const [userId, threshold] of kept) this.thresholds.set(userId, threshold);
  }

  private apply(owner: BudgetOwner, row: BudgetRow): boolean {
    const states = this.states[owner];
    if (row.budget_quota <= 0 || !isBudgetPeriod(row.budget_period)) {
      states.delete(row.id);
      return false;
    }
    const existing = states.get(row.id);
    // This instance may already have moved to a newer period than the row (its write is on the way).
    const keepOwnPeriod = existing !== undefined && existing.period === row.budget_period && existing.periodStart > row.budget_period_start;
    const fields = {
      limit: row.budget_quota,
      period: row.budget_period,
      periodStart: keepOwnPeriod ? existing.periodStart : row.budget_period_start,
      base: keepOwnPeriod ? existing.base : row.budget_used_base,
    };
    if (existing) Object.assign(existing, fields);
    else states.set(row.id, { owner, id: row.id, pending: 0, ...fields });
    return true;
  }

  private applySetting(userId: number, setting: string | null): void {
    const { threshold } = readAlertSettings(setting);
    if (threshold === undefined) this.thresholds.delete(userId);
    else this.thresholds.set(userId, threshold);
  }
}
