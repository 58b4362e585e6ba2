import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { tokens, users } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Spending budgets that reset per day, week or month, on tokens and on users, with the state of
 * their alerts (budget_* columns) and of the user's low-balance alert (users.quota_alerted_at).
 * new-api has none of these; ensuring the two tables only adds the columns (0 or '' on old rows,
 * which means "no budget").
 */
export function budgetsMigration(dialect: SqlDialect) {
  return coreTablesMigration([users, tokens], dialect);
}
