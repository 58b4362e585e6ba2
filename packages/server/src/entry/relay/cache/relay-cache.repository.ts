import type { Kysely, Selectable } from 'kysely';
import { TokenStatus } from '@switchboard/contracts';
import type { AbilitiesTable, ChannelsTable, Database, TokensTable, UsersTable } from '../../../core/db/schema.ts';

export type TokenRow = Pick<
  Selectable<TokensTable>,
  | 'id'
  | 'user_id'
  | 'key'
  | 'status'
  | 'name'
  | 'expired_time'
  | 'remain_quota'
  | 'unlimited_quota'
  | 'model_limits_enabled'
  | 'model_limits'
  | 'allow_ips'
  | 'used_quota'
  | 'group'
  | 'rpm_limit'
  | 'tpm_limit'
  | 'concurrency_limit'
  | 'log_payload'
  | 'response_cache_off'
  | 'model_fallbacks'
>;
export type UserRow = Pick<
  Selectable<UsersTable>,
  'id' | 'username' | 'role' | 'status' | 'group' | 'quota' | 'used_quota' | 'request_count' | 'setting' | 'email'
>;
export type ChannelRow = Selectable<ChannelsTable>;
export type AbilityRow = Selectable<AbilitiesTable>;

const tokenColumns = [
  'id',
  'user_id',
  'key',
  'status',
  'name',
  'expired_time',
  'remain_quota',
  'unlimited_quota',
  'model_limits_enabled',
  'model_limits',
  'allow_ips',
  'used_quota',
  'group',
  'rpm_limit',
  'tpm_limit',
  'concurrency_limit',
  'log_payload',
  'response_cache_off',
  'model_fallbacks',
] as const;
const userColumns = ['id', 'username', 'role', 'status', 'group', 'quota', 'used_quota', 'request_count', 'setting', 'email'] as const;

/** What the token cache reads and writes (a narrow view, so tests can hand it rows from memory). */
export type TokenReads = Pick<RelayCacheRepository, 'tokenById' | 'tokenByKey' | 'tokensByIds' | 'markTokenExpired'>;
/** What the user cache reads. */
export type UserReads = Pick<RelayCacheRepository, 'userById' | 'usersByIds'>;

/** The reads behind the relay's in-memory caches (first use, change-bus reloads, the periodic reload of what is cached). */
export class RelayCacheRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** The live tokens among `ids` (one batch of the periodic reload of what is cached). */
  tokensByIds(ids: readonly number[]): Promise<TokenRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('tokens').select(tokenColumns).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
  }

  tokenById(id: number): Promise<TokenRow | undefined> {
    return this.db.selectFrom('tokens').select(tokenColumns).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }

  tokenByKey(key: string): Promise<TokenRow | undefined> {
    return this.db.selectFrom('tokens').select(tokenColumns).where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
  }

  /** Records that an enabled token has passed its expiry (status 3), as the console shows it. */
  async markTokenExpired(id: number): Promise<void> {
    await this.db.updateTable('tokens').set({ status: TokenStatus.expired }).where('id', '=', id).where('status', '=', TokenStatus.enabled).execute();
  }

  /** The live users among `ids` (one batch of the periodic reload of what is cached). */
  usersByIds(ids: readonly number[]): Promise<UserRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('users').select(userColumns).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
  }

  userById(id: number): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').select(userColumns).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();
  }

  allChannels(): Promise<ChannelRow[]> {
    return this.db.selectFrom('channels').selectAll().execute();
  }

  allAbilities(): Promise<AbilityRow[]> {
    return this.db.selectFrom('abilities').selectAll().execute();
  }
}
