import { reserveNow } from '../billing/testing/reserve-now.ts';
import { describe, expect, it } from 'vitest';
import { QuotaLedger, type TokenBalance, type UserBalance } from '../billing/quota-ledger.ts';
import type { OptionStore } from '../options/option-store.ts';
import { createLogger } from '../../core/platform/logger.ts';
import { RelayError } from '../../core/http/relay-error.ts';
import type { BudgetAlerts } from './budget-alerts.ts';
import { BudgetBook } from './budget-book.ts';
import { BudgetKeeper } from './budget-keeper.ts';
import { PeriodCalendar, periodWindow } from './budget-period.ts';
import type { BudgetRepository, BudgetRow } from './budget.repository.ts';
import type { SharedBudgetCounter } from './shared-budget-counter.ts';

const start = Date.parse('2026-06-10T12:00:00Z');

/** A keeper on a real ledger, one token budget of `limit` per day (UTC), and a clock the test moves. */
async function keeperWith(limit: number, shared?: Partial<SharedBudgetCounter>) {
  let now = start;
  const row: BudgetRow = {
    id: 1,
    budget_quota: limit,
    budget_period: 'day',
    budget_period_start: Math.floor(periodWindow('day', start, 'UTC').start / 1000),
    budget_used_base: 0,
    budget_alert_level: 0,
    budget_alert_period: 0,
  };
  const periodStarts: number[] = [];
  const repository = {
    allBudgets: async (owner: string) => (owner === 'token' ? [row] : []),
    usersWithAlertSettings: async () => [],
    startPeriod: async (_owner: string, _id: number, periodStart: number) => void periodStarts.push(periodStart),
  } as unknown as BudgetRepository;
  const book = new BudgetBook(repository);
  await book.loadAll();
  const ledger = new QuotaLedger();
  const budgetUses: number[][] = [];
  const keeper = new BudgetKeeper({
    book,
    calendar: new PeriodCalendar('UTC'),
    clock: { now: () => now, unixSeconds: () => Math.floor(now / 1000) },
    repository,
    ledger,
    alerts: {
      budgetUse: (_state: unknown, _user: number, before: number, after: number) => budgetUses.push([before, after]),
      balance: () => undefined,
    } as unknown as BudgetAlerts,
    options: { getNumber: () => 0 } as unknown as OptionStore,
    logger: createLogger('silent'),
    instanceId: 'test',
    ...(shared ? { shared: shared as SharedBudgetCounter } : {}),
  });
  ledger.watch(keeper);
  const token: TokenBalance = { id: 1, remainQuota: 1_000_000, usedQuota: 0, unlimited: false };
  const user: UserBalance = { id: 7, quota: 1_000_000, usedQuota: 0, requestCount: 0 };
  const state = book.token(1);
  if (!state) throw new Error('budget not loaded');
  return {
    ledger,
    keeper,
    state,
    token,
    user,
    budgetUses,
    periodStarts,
    advanceTo: (ms: number) => (now = ms),
    /** Reserves 10 units with a worst case of `worst`; the budget's refusal as its code. */
    async request(worst: number) {
      const reserved = reserveNow(ledger, token, user, 10, worst);
      if (!reserved.ok) throw new Error('quota refused');
      try {
        await keeper.hold(reserved.reservation, worst);
        return reserved.reservation;
      } catch (error) {
        if (error instanceof RelayError) return error.code;
        throw error;
      }
    },
  };
}

describe('budget keeper', () => {
  it('holds worst cases until the room is gone, then refuses and gives the quota hold back', async () => {
    const kit = await keeperWith(250);
    const first = await kit.request(100);
    const second = await kit.request(100);
    // 50 left: the third is the one admitted at the edge; the fourth finds no room.
    const third = await kit.request(100);
    expect(kit.state.pending).toBe(300);
    expect(await kit.request(100)).toBe('token_budget_exceeded');
    expect(kit.user.quota).toBe(1_000_000 - 30);
    if (typeof first === 'string' || typeof second === 'string' || typeof third === 'string') throw new Error('refused');
    void kit.ledger.settle(first, 80, 1, undefined);
    kit.ledger.refund(second);
    expect(kit.state.pending).toBe(100);
    // Use 80 + hold 100 = 180 < 250: room again.
    expect(typeof (await kit.request(100))).toBe('object');
    expect(kit.budgetUses).toEqual([[0, 80]]);
    kit.ledger.refund(third);
  });

  it('counts a new day from the used quota at its first request', async () => {
    const kit = await keeperWith(100);
    const spent = await kit.request(100);
    if (typeof spent === 'string') throw new Error('refused');
    void kit.ledger.settle(spent, 100, 1, undefined);
    expect(await kit.request(1)).toBe('token_budget_exceeded');
    const tomorrow = periodWindow('day', start, 'UTC').end;
    kit.advanceTo(tomorrow);
    expect(typeof (await kit.request(50))).toBe('object');
    expect(kit.state.base).toBe(100);
    expect(kit.periodStarts).toEqual([tomorrow / 1000]);
  });

  it('falls back to counting on this instance when Redis fails, and never blocks a request on it', async () => {
    const kit = await keeperWith(150, {
      ready: true,
      reserve: () => Promise.reject(new Error('connection lost')),
      settle: () => Promise.reject(new Error('connection lost')),
    });
    const first = await kit.request(100);
    expect(typeof first).toBe('object');
    expect(kit.state.pending).toBe(100);
    expect(typeof (await kit.request(100))).toBe('object');
    expect(await kit.request(100)).toBe('token_budget_exceeded');
  });

  it('does nothing for a request whose token and user have no budget', async () => {
    const kit = await keeperWith(100);
    const reserved = reserveNow(kit.ledger, { id: 2, remainQuota: 100, usedQuota: 0, unlimited: false }, { ...kit.user, id: 8 }, 10, 50);
    if (!reserved.ok) throw new Error('refused');
    expect(kit.keeper.hold(reserved.reservation, 50)).toBeUndefined();
    expect(reserved.reservation.attachment).toBeUndefined();
  });
});
