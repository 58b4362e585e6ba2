import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { type TableDefinition, tokens } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * Request and response bodies of relayed requests, stored only while payload logging is on (globally
 * or for the token): redacted and capped per body when written (logs/payloads/). Lives beside `logs`
 * (LOG_SQL_DSN when set) and is joined to a log row by `request_id`; the retention job deletes rows
 * older than LogPayloadRetentionDays by `created_at`.
 */
export const logPayloads: TableDefinition = {
  name: 'switchboard_log_payloads',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'request_id', type: 'varchar(64)', notNull: true, defaultValue: '' },
    { name: 'user_id', type: 'bigint', defaultValue: 0 },
    { name: 'token_id', type: 'bigint', defaultValue: 0 },
    { name: 'created_at', type: 'bigint', defaultValue: 0 },
    { name: 'is_stream', type: 'boolean', defaultValue: false },
    // Text columns carry no default (MySQL refuses one); every insert sets them.
    { name: 'request_body', type: 'text' },
    { name: 'response_body', type: 'text' },
    { name: 'request_truncated', type: 'boolean', defaultValue: false },
    { name: 'response_truncated', type: 'boolean', defaultValue: false },
  ],
  indexes: [
    { name: 'idx_switchboard_log_payloads_request_id', columns: ['request_id'] },
    { name: 'idx_switchboard_log_payloads_created_at', columns: ['created_at'] },
  ],
};

/** The payload table, in the log database's own history. */
export function payloadLogsMigration(dialect: SqlDialect) {
  return coreTablesMigration([logPayloads], dialect);
}

/** `tokens.log_payload`: the per-token switch (0 on every existing row: off). */
export function tokenPayloadLoggingMigration(dialect: SqlDialect) {
  return coreTablesMigration([tokens], dialect);
}
