import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { tokens } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * `tokens.rpm_limit`, `tpm_limit` and `concurrency_limit`: a token's own requests per minute, tokens
 * per minute and concurrent requests (0, the default on every existing row, is unlimited). new-api's
 * table has none of them; ensuring the table only adds what is missing.
 */
export function tokenRequestLimitsMigration(dialect: SqlDialect) {
  return coreTablesMigration([tokens], dialect);
}
