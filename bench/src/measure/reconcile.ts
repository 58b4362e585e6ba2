import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../packages/server/src/core/db/schema.ts';
import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { usageFor, type FakeStats, type UsageTally } from '../fake-upstream/fake-stats.ts';
import { expectedQuota, type SeededSwitchboard } from '../targets/switchboard-seed.ts';

/** The `user` marker of the clean account's requests (see load/clean-traffic.ts). */
export const cleanCaller = 'bench-clean';

export interface AccountCheck {
  /** Requests whose usage the fake upstream wrote in full, and the quota they must cost. */
  emittedRequests: number;
  emittedPromptTokens: number;
  emittedCompletionTokens: number;
  expectedQuota: number;
  /** What Switchboard recorded, read from its database after a clean stop flushed everything. */
  logRows: number;
  logQuota: number;
  userUsedQuota: number;
  /** How far the user's balance went down: above used_quota means holds never settled nor refunded. */
  userQuotaSpent: number;
  tokenUsedQuota: number;
  /** Per usage shape (prompt:completion): requests the fake completed against log rows. */
  byUsage: Array<{ usage: string; emitted: number; logged: number }>;
  /** Log rows whose usage the fake never emitted: streams the caller left, billed by Switchboard's own count. */
  locallyCountedRows: number;
  /** Every charge equals usage × price and every hold was released. */
  exact: boolean;
}

export interface Reconciliation {
  /** The clean account: only requests read to their end; must be exact. */
  clean: AccountCheck;
  /** The account of the whole run (load generators cut requests when a timed run ends). */
  run: AccountCheck;
  /** The failure-path account: quota taken must equal quota charged (no hold left behind). */
  errorAccount: { spent: number; used: number; logged: number; balanced: boolean };
}

/** What one account's rows say, read from Switchboard's database after a clean stop. */
export interface AccountRows {
  /** Consume log rows grouped by their usage. */
  logs: ReadonlyArray<{ prompt_tokens: number; completion_tokens: number; rows: number; quota: number }>;
  user: { used_quota: number; quota: number };
  token: { used_quota: number };
}

/**
 * The account's verdict: every request whose usage the fake emitted in full was charged usage × price
 * (Σ of the tally) in the logs, the user's and the token's used quota and the balance; a balance that
 * went down by more than was used means a hold was never settled nor refunded.
 */
export function judgeAccount(emitted: UsageTally, rows: AccountRows, startingQuota: number, logsExpected: boolean): AccountCheck {
  const expected = emitted.tally.reduce((sum, entry) => sum + expectedQuota(entry.prompt, entry.completion) * entry.count, 0);
  const byUsage = new Map<string, { usage: string; emitted: number; logged: number }>();
  for (const entry of emitted.tally)
    byUsage.set(`${entry.prompt}:${entry.completion}`, { usage: `${entry.prompt}:${entry.completion}`, emitted: entry.count, logged: 0 });
  let locallyCountedRows = 0;
  for (const row of rows.logs) {
    const entry = byUsage.get(`${row.prompt_tokens}:${row.completion_tokens}`);
    if (entry) entry.logged = Number(row.rows);
    else locallyCountedRows += Number(row.rows);
  }
  const check: AccountCheck = {
    emittedRequests: emitted.requests,
    emittedPromptTokens: emitted.promptTokens,
    emittedCompletionTokens: emitted.completionTokens,
    expectedQuota: expected,
    logRows: rows.logs.reduce((sum, row) => sum + Number(row.rows), 0),
    logQuota: rows.logs.reduce((sum, row) => sum + Number(row.quota), 0),
    userUsedQuota: Number(rows.user.used_quota),
    userQuotaSpent: startingQuota - Number(rows.user.quota),
    tokenUsedQuota: Number(rows.token.used_quota),
    byUsage: [...byUsage.values()],
    locallyCountedRows,
    exact: false,
  };
  const logsExact = !logsExpected || (check.logQuota === expected && check.logRows === emitted.requests);
  check.exact = logsExact && check.userUsedQuota === expected && check.userQuotaSpent === expected && check.tokenUsedQuota === expected;
  return check;
}

async function checkAccount(
  db: Kysely<Database>,
  userId: number,
  tokenId: number,
  fake: FakeStats,
  fakeKey: string,
  startingQuota: number,
  logsExpected: boolean,
): Promise<AccountCheck> {
  const logs = await db
    .selectFrom('logs')
    .select(['prompt_tokens', 'completion_tokens', sql<number>`count(*)`.as('rows'), sql<number>`coalesce(sum(quota), 0)`.as('quota')])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .groupBy(['prompt_tokens', 'completion_tokens'])
    .execute();
  const user = await db.selectFrom('users').select(['used_quota', 'quota']).where('id', '=', userId).executeTakeFirstOrThrow();
  const token = await db.selectFrom('tokens').select(['used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
  return judgeAccount(usageFor(fake, fakeKey), { logs, user, token }, startingQuota, logsExpected);
}

/**
 * Quota charged against usage emitted, per account: Σ over the fake's tally of the bench price, against
 * the sums in `logs`, `users` and `tokens`, read after a clean stop.
 */
export async function reconcile(
  sqlDsn: string,
  sqlitePath: string,
  seeded: SeededSwitchboard,
  fake: FakeStats,
  startingQuota: number,
  logsExpected: boolean,
): Promise<Reconciliation> {
  const handle = await openDatabase(sqlDsn, sqlitePath);
  try {
    const clean = await checkAccount(
      handle.db,
      seeded.cleanUserId,
      seeded.cleanTokenId,
      fake,
      `${seeded.upstreamKey}#${cleanCaller}`,
      startingQuota,
      logsExpected,
    );
    const run = await checkAccount(handle.db, seeded.userId, seeded.tokenId, fake, seeded.upstreamKey, startingQuota, logsExpected);
    const errorUser = await handle.db.selectFrom('users').select(['used_quota', 'quota']).where('id', '=', seeded.errorUserId).executeTakeFirstOrThrow();
    const errorLogs = await handle.db
      .selectFrom('logs')
      .select(sql<number>`coalesce(sum(quota), 0)`.as('quota'))
      .where('user_id', '=', seeded.errorUserId)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    const spent = startingQuota - Number(errorUser.quota);
    const used = Number(errorUser.used_quota);
    const logged = Number(errorLogs.quota);
    return { clean, run, errorAccount: { spent, used, logged, balanced: spent === used && (!logsExpected || spent === logged) } };
  } finally {
    await handle.close();
  }
}
