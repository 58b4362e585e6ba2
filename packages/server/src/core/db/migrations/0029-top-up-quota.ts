import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { topUps } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * `top_ups.quota`: what an online top-up credits, to the unit, fixed when the order is placed. The
 * order's `amount` keeps new-api's meaning (whole dollars), which cannot hold an order made in quota
 * units (999,999 units are 1.999998 dollars); rows without it (0) credit amount × QuotaPerUnit.
 */
export function topUpQuotaMigration(dialect: SqlDialect) {
  return coreTablesMigration([topUps], dialect);
}
