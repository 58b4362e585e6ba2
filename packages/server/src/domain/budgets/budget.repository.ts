import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.ts';

/** Whose budget: a relay token's or a user's (both tables carry the same budget columns). */
export type BudgetOwner = 'token' | 'user';

const tableOf = { token: 'tokens', user: 'users' } as const;

/** A budget row as the relay keeps it (see BudgetBook). */
export interface BudgetRow {
  readonly id: number;
  readonly budget_quota: number;
  readonly budget_period: string;
  readonly budget_period_start: number;
  readonly budget_used_base: number;
  readonly budget_alert_level: number;
  readonly budget_alert_period: number;
}

/** A budget with what the console shows beside it (the owner's name and used quota). */
export interface BudgetDisplayRow extends BudgetRow {
  readonly name: string;
  readonly used_quota: number;
}

/** Who gets a user's alerts. */
export interface AlertRecipientRow {
  readonly id: number;
  readonly username: string;
  readonly email: string;
  readonly setting: string | null;
}

const budgetColumns = ['id', 'budget_quota', 'budget_period', 'budget_period_start', 'budget_used_base', 'budget_alert_level', 'budget_alert_period'] as const;

/** Reads and writes of the budget columns (migration 0021) and of the alert state. */
export class BudgetRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Every live token or user with a budget. */
  allBudgets(owner: BudgetOwner): Promise<BudgetRow[]> {
    return this.db.selectFrom(tableOf[owner]).select(budgetColumns).where('budget_quota', '>', 0).where('deleted_at', 'is', null).execute();
  }

  /** One owner's budget, undefined when it has none (or is gone). */
  budget(owner: BudgetOwner, id: number): Promise<BudgetRow | undefined> {
    return this.db
      .selectFrom(tableOf[owner])
      .select(budgetColumns)
      .where('id', '=', id)
      .where('budget_quota', '>', 0)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /** Users whose `setting` may carry their own alert threshold or a webhook. */
  usersWithAlertSettings(): Promise<Array<{ id: number; setting: string | null }>> {
    return this.db
      .selectFrom('users')
      .select(['id', 'setting'])
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('setting', 'like', '%quota_warning_threshold%'), eb('setting', 'like', '%webhook_url%')]))
      .execute();
  }

  userSetting(id: number): Promise<{ id: number; setting: string | null } | undefined> {
    return this.db.selectFrom('users').select(['id', 'setting']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }

  /**
   * Records where a new period's use starts (`used_quota` at its start), unless an instance already
   * recorded this period or a later one: the first instance to see the period wins.
   */
  async startPeriod(owner: BudgetOwner, id: number, periodStart: number, usedBase: number): Promise<void> {
    await this.db
      .updateTable(tableOf[owner])
      .set({ budget_period_start: periodStart, budget_used_base: usedBase })
      .where('id', '=', id)
      .where('budget_period_start', '<', periodStart)
      .execute();
  }

  /**
   * Takes the right to send the alert of `level` % for the period starting at `periodStart`: true for
   * exactly one caller across instances, and never for a level at or under one already sent.
   */
  async claimBudgetAlert(owner: BudgetOwner, id: number, periodStart: number, level: number): Promise<boolean> {
    const result = await this.db
      .updateTable(tableOf[owner])
      .set({ budget_alert_level: level, budget_alert_period: periodStart })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('budget_alert_period', '<>', periodStart), eb('budget_alert_level', '<', level)]))
      .execute();
    return Number(result[0]?.numUpdatedRows ?? 0) > 0;
  }

  /** Takes the right to send a low-balance alert: true for one caller, and not again before `quietUntil`. */
  async claimBalanceAlert(userId: number, now: number, quietSince: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ quota_alerted_at: now })
      .where('id', '=', userId)
      .where('quota_alerted_at', '<=', quietSince)
      .execute();
    return Number(result[0]?.numUpdatedRows ?? 0) > 0;
  }

  alertRecipient(userId: number): Promise<AlertRecipientRow | undefined> {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'email', 'setting'])
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  tokenOwner(tokenId: number): Promise<{ user_id: number; name: string } | undefined> {
    return this.db.selectFrom('tokens').select(['user_id', 'name']).where('id', '=', tokenId).executeTakeFirst();
  }

  /** The budgets of one user's live tokens, with their used quota (for the token list). */
  tokenDisplays(userId: number): Promise<BudgetDisplayRow[]> {
    return this.db
      .selectFrom('tokens')
      .select([...budgetColumns, 'name', 'used_quota'])
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .orderBy('id', 'desc')
      .execute();
  }

  tokenDisplay(userId: number, tokenId: number): Promise<BudgetDisplayRow | undefined> {
    return this.db
      .selectFrom('tokens')
      .select([...budgetColumns, 'name', 'used_quota'])
      .where('id', '=', tokenId)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  userDisplay(userId: number): Promise<(BudgetDisplayRow & { role: number; setting: string | null }) | undefined> {
    return this.db
      .selectFrom('users')
      .select([...budgetColumns, 'username as name', 'used_quota', 'role', 'setting'])
      .where('id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }

  /**
   * Sets or clears a budget. `period` is the period start now and `usedQuota` the owner's used quota:
   * a budget that is new, or whose period kind changed, counts from this moment; one only resized
   * keeps the use already counted in its period.
   */
  async setBudget(
    owner: BudgetOwner,
    id: number,
    budget: { quota: number; period: string },
    current: { periodStart: number; usedQuota: number; restart: boolean },
  ): Promise<void> {
    await this.db
      .updateTable(tableOf[owner])
      .set({
        budget_quota: budget.quota,
        budget_period: budget.period,
        ...(current.restart
          ? { budget_period_start: current.periodStart, budget_used_base: current.usedQuota, budget_alert_level: 0, budget_alert_period: 0 }
          : {}),
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  async saveUserSetting(userId: number, setting: string): Promise<void> {
    await this.db.updateTable('users').set({ setting }).where('id', '=', userId).where('deleted_at', 'is', null).execute();
  }
}
