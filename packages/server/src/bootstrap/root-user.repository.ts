import type { Kysely } from 'kysely';
import type { Database, NewUser } from '../db/schema.ts';

/** The first start's statements: is the users table empty, and the super administrator's row. */
export class RootUserRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async anyUserExists(): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async rootExists(): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').where('username', '=', 'root').executeTakeFirst()) !== undefined;
  }

  /** The root user, then the `setups` row that marks the database as initialised. */
  async insertRoot(root: NewUser, initializedAt: number): Promise<void> {
    await this.db.insertInto('users').values(root).execute();
    await this.db.insertInto('setups').values({ version: 'switchboard', initialized_at: initializedAt }).execute();
  }
}
