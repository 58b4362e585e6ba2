import type { Kysely } from 'kysely';
import { fromBoolean, sqlTimestamp, toBoolean } from '../../../core/db/dialect.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import type { Database } from '../../../core/db/schema.ts';
import { safeParseJson } from '../../../core/platform/safe-json.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';

/** A stored passkey as the service sees it; ids and keys in new-api's encoding (standard base64). */
export interface PasskeyRecord {
  id: number;
  userId: number;
  name: string;
  credentialId: string;
  publicKey: string;
  signCount: number;
  transports: string[];
  backupEligible: boolean;
  createdAt: number;
  lastUsedAt: number;
}

export type NewPasskey = Omit<PasskeyRecord, 'id' | 'createdAt' | 'lastUsedAt'> & {
  attestationType: string;
  aaguid: string;
  userVerified: boolean;
  backupState: boolean;
  attachment: string;
};

/** GORM's datetimes come back as Date (PostgreSQL, MySQL) or text (SQLite, with or without a zone). */
function unixSeconds(value: Date | string | null): number {
  if (value === null) return 0;
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  const text = value.trim().replace(' ', 'T');
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  const parsed = Date.parse(zoned);
  return Number.isNaN(parsed) ? 0 : Math.floor(parsed / 1000);
}

function parseTransports(value: string | null): string[] {
  const parsed = value ? safeParseJson(value) : undefined;
  if (!parsed?.ok || !Array.isArray(parsed.value)) return [];
  return parsed.value.filter((entry): entry is string => typeof entry === 'string');
}

/** SQL for `passkey_credentials` (db/migrations/0026-passkeys.ts). Rows are deleted for good, as new-api does. */
export class PasskeyRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  private live() {
    return this.db.selectFrom('passkey_credentials').selectAll().where('deleted_at', 'is', null);
  }

  private toRecord(row: Awaited<ReturnType<ReturnType<PasskeyRepository['live']>['executeTakeFirstOrThrow']>>): PasskeyRecord {
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      name: row.name ?? '',
      credentialId: row.credential_id,
      publicKey: row.public_key,
      signCount: Number(row.sign_count),
      transports: parseTransports(row.transports),
      backupEligible: toBoolean(row.backup_eligible),
      createdAt: unixSeconds(row.created_at),
      lastUsedAt: unixSeconds(row.last_used_at),
    };
  }

  async listByUser(userId: number): Promise<PasskeyRecord[]> {
    const rows = await this.live().where('user_id', '=', userId).orderBy('id').execute();
    return rows.map((row) => this.toRecord(row));
  }

  async countByUser(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('passkey_credentials')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRecord | undefined> {
    const row = await this.live().where('credential_id', '=', credentialId).executeTakeFirst();
    return row ? this.toRecord(row) : undefined;
  }

  /** Any row with this credential id, soft-deleted ones too (the column is unique). */
  async credentialIdTaken(credentialId: string): Promise<boolean> {
    const row = await this.db.selectFrom('passkey_credentials').select('id').where('credential_id', '=', credentialId).executeTakeFirst();
    return row !== undefined;
  }

  async insert(passkey: NewPasskey, nowMs: number): Promise<number> {
    const now = sqlTimestamp(new Date(nowMs), this.dialect);
    return insertReturningId(
      this.db.insertInto('passkey_credentials').values({
        user_id: passkey.userId,
        name: passkey.name,
        credential_id: passkey.credentialId,
        public_key: passkey.publicKey,
        attestation_type: passkey.attestationType,
        aaguid: passkey.aaguid,
        sign_count: passkey.signCount,
        clone_warning: fromBoolean(false),
        user_present: fromBoolean(true),
        user_verified: fromBoolean(passkey.userVerified),
        backup_eligible: fromBoolean(passkey.backupEligible),
        backup_state: fromBoolean(passkey.backupState),
        transports: JSON.stringify(passkey.transports),
        attachment: passkey.attachment,
        last_used_at: null,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      }),
      this.dialect,
    );
  }

  /**
   * Records a verified use: the new signature counter, only if the counter is still the one the check
   * read, so two parallel uses of one assertion cannot both pass. False when another use came first.
   */
  async recordUse(id: number, previousCount: number, newCount: number, backupState: boolean, nowMs: number): Promise<boolean> {
    const now = sqlTimestamp(new Date(nowMs), this.dialect);
    const result = await this.db
      .updateTable('passkey_credentials')
      .set({ sign_count: newCount, backup_state: fromBoolean(backupState), last_used_at: now, updated_at: now })
      .where('id', '=', id)
      .where('sign_count', '=', previousCount)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** new-api's clone warning: the authenticator's counter went backwards, so a copy of the key may exist. */
  async flagClone(id: number): Promise<void> {
    await this.db
      .updateTable('passkey_credentials')
      .set({ clone_warning: fromBoolean(true) })
      .where('id', '=', id)
      .execute();
  }

  async rename(userId: number, id: number, name: string, nowMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('passkey_credentials')
      .set({ name, updated_at: sqlTimestamp(new Date(nowMs), this.dialect) })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('passkey_credentials').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Removes all of a user's passkeys; answers how many there were. */
  async deleteAllOf(userId: number): Promise<number> {
    const result = await this.db.deleteFrom('passkey_credentials').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
