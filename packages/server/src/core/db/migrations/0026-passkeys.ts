import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { SqlDialect } from '../../platform/sql-dsn.ts';
import { ensureTable } from '../ensure-tables.ts';
import type { TableDefinition } from '../table-definitions.ts';

const userIdIndex = 'idx_passkey_credentials_user_id';

/**
 * new-api's WebAuthn credentials (api/passkey/), with its table name, columns and GORM index names, so
 * a moved-over database keeps its passkeys (ids and COSE public keys base64 with padding, GORM
 * datetimes, `deleted_at` its soft delete) and a move back finds its table. Two differences: `name`
 * (ours: a user names each of several passkeys) and a plain index on `user_id` where new-api has a
 * unique one (it allows one passkey per user); new-api reads the first row of a user, so it still works.
 */
export const passkeyCredentials: TableDefinition = {
  name: 'passkey_credentials',
  columns: [
    { name: 'id', type: 'id' },
    { name: 'user_id', type: 'bigint', notNull: true },
    { name: 'credential_id', type: 'varchar(512)', notNull: true },
    { name: 'public_key', type: 'text', notNull: true },
    { name: 'attestation_type', type: 'varchar(255)' },
    { name: 'aaguid', type: 'varchar(512)' },
    { name: 'sign_count', type: 'bigint', defaultValue: 0 },
    { name: 'clone_warning', type: 'boolean', defaultValue: false },
    { name: 'user_present', type: 'boolean', defaultValue: false },
    { name: 'user_verified', type: 'boolean', defaultValue: false },
    { name: 'backup_eligible', type: 'boolean', defaultValue: false },
    { name: 'backup_state', type: 'boolean', defaultValue: false },
    { name: 'transports', type: 'text' },
    { name: 'attachment', type: 'varchar(32)' },
    { name: 'last_used_at', type: 'timestamp' },
    { name: 'created_at', type: 'timestamp' },
    { name: 'updated_at', type: 'timestamp' },
    { name: 'deleted_at', type: 'timestamp' },
    { name: 'name', type: 'varchar(128)', defaultValue: '' },
  ],
  indexes: [
    { name: userIdIndex, columns: ['user_id'] },
    { name: 'idx_passkey_credentials_credential_id', columns: ['credential_id'], unique: true },
    { name: 'idx_passkey_credentials_deleted_at', columns: ['deleted_at'] },
  ],
};

/* eslint-disable @typescript-eslint/no-explicit-any -- reads engine catalogues, not our schema */
async function isUniqueIndex(db: Kysely<any>, dialect: SqlDialect): Promise<boolean> {
  if (dialect === 'sqlite') {
    const rows = await sql<{ name: string; unique: number }>`pragma index_list(passkey_credentials)`.execute(db);
    return rows.rows.some((row) => row.name === userIdIndex && Number(row.unique) === 1);
  }
  if (dialect === 'postgres') {
    const rows = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = ${userIdIndex} and schemaname = current_schema()`.execute(
      db,
    );
    return rows.rows.some((row) => /\bunique\b/i.test(row.indexdef));
  }
  const rows = await sql<{
    NON_UNIQUE: number | string;
  }>`select NON_UNIQUE from information_schema.statistics where table_schema = database() and table_name = 'passkey_credentials' and index_name = ${userIdIndex}`.execute(
    db,
  );
  return rows.rows.some((row) => Number(row.NON_UNIQUE) === 0);
}

export function passkeysMigration(dialect: SqlDialect): Migration {
  return {
    async up(db: Kysely<any>) {
      // A moved-over new-api database has the user index unique (one passkey per user): it is replaced
      // by a plain index of the same name, or a user's second passkey could never be saved. No row changes.
      const tables = await db.introspection.getTables();
      if (tables.some((table) => table.name === passkeyCredentials.name) && (await isUniqueIndex(db, dialect))) {
        const drop = db.schema.dropIndex(userIdIndex);
        await (dialect === 'mysql' ? drop.on(passkeyCredentials.name) : drop).execute();
      }
      await ensureTable(db, passkeyCredentials, dialect);
    },
  };
}
