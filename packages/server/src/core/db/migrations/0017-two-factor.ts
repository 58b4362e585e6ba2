import type { SqlDialect } from '../../platform/sql-dsn.ts';
import type { TableDefinition } from '../table-definitions.ts';
import { coreTablesMigration } from './0001-core-tables.ts';

/**
 * TOTP second factor (api/two-factor/). Our own names, so they cannot clash with new-api's `two_fas`
 * and `two_fa_backup_codes` on an imported database (their rows keep GORM timestamps we do not read).
 * `last_step` is the newest RFC 6238 time step accepted: a code is taken only for a later step, in
 * one conditional UPDATE, so the same code cannot be replayed within its window, even in parallel.
 * A row with `enabled` 0 is a pending setup, confirmed by `/api/user/2fa/enable`.
 */
export const twoFactor: TableDefinition = {
  name: 'switchboard_two_factor',
  columns: [
    { name: 'user_id', type: 'bigint', notNull: true },
    { name: 'secret', type: 'varchar(64)', notNull: true },
    { name: 'enabled', type: 'boolean', defaultValue: false },
    { name: 'last_step', type: 'bigint', defaultValue: 0 },
    { name: 'created_at', type: 'bigint', defaultValue: 0 },
    { name: 'enabled_at', type: 'bigint', defaultValue: 0 },
  ],
  primaryKey: ['user_id'],
  indexes: [],
};

/** Single-use backup codes, hashed (scrypt); `used_at` 0 means still unused. */
export const twoFactorBackupCodes: TableDefinition = {
  name: 'switchboard_two_factor_backup_codes',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'user_id', type: 'bigint', notNull: true },
    { name: 'code_hash', type: 'varchar(255)', notNull: true },
    { name: 'used_at', type: 'bigint', defaultValue: 0 },
  ],
  indexes: [{ name: 'idx_switchboard_two_factor_backup_codes_user_id', columns: ['user_id'] }],
};

export function twoFactorMigration(dialect: SqlDialect) {
  return coreTablesMigration([twoFactor, twoFactorBackupCodes], dialect);
}
