import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { tokens } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * `tokens.response_cache_off` (the owner's opt-out of the response cache, 0 on every existing row) and
 * `tokens.model_fallbacks` (the token's own fallback chains, empty: the `ModelFallbacks` option's).
 * new-api's table has neither; ensuring the table only adds what is missing.
 */
export function tokenCacheAndFallbacksMigration(dialect: SqlDialect) {
  return coreTablesMigration([tokens], dialect);
}
