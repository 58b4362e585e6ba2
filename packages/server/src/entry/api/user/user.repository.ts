import { type Kysely, sql } from 'kysely';
import type { Database, NewUser, UserRow, UserUpdate } from '../../../core/db/schema.ts';
import { fromBoolean, sqlTimestamp } from '../../../core/db/dialect.ts';
import { inTransaction } from '../../../core/db/in-transaction.ts';
import { insertReturningId } from '../../../core/db/insert-id.ts';
import type { SqlDialect } from '../../../core/platform/sql-dsn.ts';

export type { UserRow } from '../../../core/db/schema.ts';
export type UserPatch = UserUpdate;
/** Columns that hold a third-party identity (or the email) a user can be found by. */
export type IdentityColumn = 'email' | 'github_id' | 'wechat_id' | 'telegram_id' | 'linux_do_id' | 'aff_code';

/** Escapes LIKE wildcards so a search for "a_b" matches that text only. */
function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * SQL for the users table; `transaction` runs several of its statements as one unit of work.
 * "Live" means not deregistered (deleted_at is null).
 */
export class UserRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  /** Runs `work` in one transaction, given this repository bound to it. */
  transaction<T>(work: (users: UserRepository) => Promise<T>): Promise<T> {
    return inTransaction(this.db, (trx) => work(new UserRepository(trx, this.dialect)));
  }

  async findById(id: number, options: { includeDeleted?: boolean } = {}): Promise<UserRow | undefined> {
    let query = this.db.selectFrom('users').selectAll().where('id', '=', id);
    if (!options.includeDeleted) query = query.where('deleted_at', 'is', null);
    return query.executeTakeFirst();
  }

  /** The live user whose username or email is `login` (password login accepts either). */
  async findLiveByLogin(login: string): Promise<UserRow | undefined> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb.or([eb('username', '=', login), eb('email', '=', login)]))
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .executeTakeFirst();
  }

  /** Finds by an identity column; deregistered users are included so an identity is never reused. */
  async findByIdentity(column: IdentityColumn, value: string): Promise<UserRow | undefined> {
    if (!value) return undefined;
    return this.db.selectFrom('users').selectAll().where(column, '=', value).orderBy('id').executeTakeFirst();
  }

  /**
   * The ids of the users named `username`, deregistered ones included (their logs stay): the log
   * page's username filter reads the logs by user id. Usernames are unique, so at most one.
   */
  async idsOfUsername(username: string): Promise<number[]> {
    const rows = await this.db.selectFrom('users').select('id').where('username', '=', username).execute();
    return rows.map((row) => Number(row.id));
  }

  async usernameExists(username: string): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;
  }

  async list(offset: number, limit: number): Promise<UserRow[]> {
    return this.db.selectFrom('users').selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  /** Every user, deregistered ones too (the list shows them). */
  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  /** Matches the id exactly, or username, email or display name by prefix; optionally within a group. */
  async search(keyword: string, group: string, offset: number, limit: number): Promise<UserRow[]> {
    return this.matching(keyword, group).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
  }

  async countSearch(keyword: string, group: string): Promise<number> {
    const row = await this.matching(keyword, group)
      .select((eb) => eb.fn.countAll<number | string>().as('total'))
      .executeTakeFirstOrThrow();
    return Number(row.total);
  }

  private matching(keyword: string, group: string) {
    let query = this.db.selectFrom('users');
    if (group) query = query.where('group', '=', group);
    if (keyword) {
      // PostgreSQL and MySQL escape LIKE patterns with a backslash by default; SQLite must be told.
      const pattern = this.dialect === 'sqlite' ? sql<string>`${likePrefix(keyword)} escape '\\'` : sql<string>`${likePrefix(keyword)}`;
      const numericId = /^\d{1,15}$/.test(keyword) ? Number(keyword) : undefined;
      query = query.where((eb) =>
        eb.or([
          ...(numericId === undefined ? [] : [eb('id', '=', numericId)]),
          eb('username', 'like', pattern),
          eb('email', 'like', pattern),
          eb('display_name', 'like', pattern),
        ]),
      );
    }
    return query;
  }

  /** Whether an invitation code is already some user's. */
  async affCodeTaken(code: string): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('aff_code', '=', code).executeTakeFirst()) !== undefined;
  }

  async insert(values: NewUser): Promise<number> {
    return insertReturningId(this.db.insertInto('users').values(values), this.dialect);
  }

  async update(id: number, patch: UserPatch): Promise<void> {
    if (Object.keys(patch).length === 0) return;
    await this.db.updateTable('users').set(patch).where('id', '=', id).execute();
  }

  /** Adds (or with a negative amount, removes) quota in one statement, safe against concurrent spending. */
  async addQuota(id: number, amount: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ quota: eb('quota', '+', amount) }))
      .where('id', '=', id)
      .execute();
  }

  /** Credits an inviter: one more invitee, and the reward into pending and lifetime invitation earnings. */
  async creditInviter(inviterId: number, reward: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ aff_count: eb('aff_count', '+', 1), aff_quota: eb('aff_quota', '+', reward), aff_history: eb('aff_history', '+', reward) }))
      .where('id', '=', inviterId)
      .execute();
  }

  /** Moves pending invitation earnings into the balance; false when the user has less than `amount`. */
  async transferAffQuota(id: number, amount: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set((eb) => ({ aff_quota: eb('aff_quota', '-', amount), quota: eb('quota', '+', amount) }))
      .where('id', '=', id)
      .where('aff_quota', '>=', amount)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async markDeleted(id: number, at: Date): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ deleted_at: sqlTimestamp(at, this.dialect) })
      .where('id', '=', id)
      .execute();
  }

  async maxId(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.max('id').as('max'))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  /** Names of the models enabled for any of the groups, from the routing index. */
  async modelsOfGroups(groups: readonly string[]): Promise<string[]> {
    if (groups.length === 0) return [];
    const rows = await this.db
      .selectFrom('abilities')
      .select('model')
      .distinct()
      .where('group', 'in', [...groups])
      .where('enabled', '=', fromBoolean(true))
      .orderBy('model')
      .execute();
    return rows.map((row) => row.model);
  }

  /** Ends the user's other console sessions (after a password change), keeping the current one. */
  async deleteOtherSessions(userId: number, keepSessionId: string | undefined): Promise<void> {
    let query = this.db.deleteFrom('switchboard_sessions').where('user_id', '=', userId);
    if (keepSessionId) query = query.where('id', '!=', keepSessionId);
    await query.execute();
  }
}
