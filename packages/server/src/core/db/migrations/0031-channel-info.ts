import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { channels } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * `channels.channel_info`: new-api's multi-key settings (random or polling keys, disabled keys),
 * honoured by the relay's key choice. A database moved over from new-api already has the column
 * and keeps its values; ensuring the table only adds it where it is missing.
 */
export function channelInfoMigration(dialect: SqlDialect) {
  return coreTablesMigration([channels], dialect);
}
