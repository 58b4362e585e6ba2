import type { Kysely } from 'kysely';
import type { Database, NewUser } from '../../core/db/schema.ts';
import { setupPending } from '../../core/db/setup-pending.ts';

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

  /**
   * The root user, then the `setups` row that marks the database as initialised for new-api, with
   * `initialized_at` 0: the operator's first-run setup (api/setup/) is still to come and sets it.
   */
  async insertRoot(root: NewUser): Promise<void> {
    await this.db.insertInto('users').values(root).execute();
    await this.db.insertInto('setups').values({ version: 'switchboard', initialized_at: setupPending }).execute();
  }
}
