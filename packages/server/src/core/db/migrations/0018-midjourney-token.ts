import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { midjourneys } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * `midjourneys.token_id`: the relay key a drawing was paid with. new-api's table has no such column,
 * so its refunds of failed drawings return quota to the user but never to the token, whose balance
 * then stays short. Ensuring the table only adds the column (0 on rows written before it).
 */
export function midjourneyTokenMigration(dialect: SqlDialect) {
  return coreTablesMigration([midjourneys], dialect);
}
