import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.ts';
import type { CurrentUser } from './current-user.ts';

const userColumns = ['id', 'username', 'display_name', 'role', 'status', 'group'] as const;

function toCurrentUser(row: { id: number; username: string; display_name: string; role: number; status: number; group: string }): CurrentUser {
  return { id: row.id, username: row.username, displayName: row.display_name, role: row.role, status: row.status, group: row.group };
}

export class AuthRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async insertSession(session: { id: string; userId: number; createdAt: number; expiresAt: number; ip: string }): Promise<void> {
    await this.db
      .insertInto('switchboard_sessions')
      .values({ id: session.id, user_id: session.userId, created_at: session.createdAt, expires_at: session.expiresAt, ip: session.ip })
      .execute();
  }

  async deleteSession(id: string): Promise<void> {
    await this.db.deleteFrom('switchboard_sessions').where('id', '=', id).execute();
  }

  /** Ends every session of a user (password change, ban, deregistration). */
  async deleteSessionsOfUser(userId: number): Promise<void> {
    await this.db.deleteFrom('switchboard_sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpiredSessions(now: number): Promise<void> {
    await this.db.deleteFrom('switchboard_sessions').where('expires_at', '<', now).execute();
  }

  /** The live (not deregistered) user behind an unexpired session. */
  async findUserBySession(sessionId: string, now: number): Promise<CurrentUser | undefined> {
    const row = await this.db
      .selectFrom('switchboard_sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(userColumns.map((column) => `u.${column}` as const))
      .where('s.id', '=', sessionId)
      .where('s.expires_at', '>', now)
      .where('u.deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toCurrentUser(row) : undefined;
  }

  async findUserByAccessToken(accessToken: string): Promise<CurrentUser | undefined> {
    const row = await this.db
      .selectFrom('users')
      .select(userColumns)
      .where('access_token', '=', accessToken)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return row ? toCurrentUser(row) : undefined;
  }
}
