import type { Kysely } from 'kysely';
import { fromBoolean } from '../../../core/db/dialect.ts';
import type { Database } from '../../../core/db/schema.ts';

/** `GET /api/user/2fa/stats`: live users, and those with a second factor (TOTP on, or a passkey). */
export class SecondFactorStatsRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async counts(): Promise<{ total: number; enabled: number }> {
    const total = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    const enabled = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('deleted_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('id', 'in', eb.selectFrom('switchboard_two_factor').select('user_id').where('enabled', '=', fromBoolean(true))),
          eb('id', 'in', eb.selectFrom('passkey_credentials').select('user_id').where('deleted_at', 'is', null)),
        ]),
      )
      .executeTakeFirst();
    return { total: Number(total?.count ?? 0), enabled: Number(enabled?.count ?? 0) };
  }
}
