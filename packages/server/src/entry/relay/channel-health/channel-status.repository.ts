import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.ts';
import { fromBoolean } from '../../../core/db/dialect.ts';

/** The writes of channel health: status with its reason, abilities' enabled flag, test results. */
export class ChannelStatusRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  async setStatus(channelId: number, status: number, otherInfo: string, enabled: boolean): Promise<void> {
    await this.db.transaction().execute(async (transaction) => {
      await transaction.updateTable('channels').set({ status, other_info: otherInfo }).where('id', '=', channelId).execute();
      await transaction
        .updateTable('abilities')
        .set({ enabled: fromBoolean(enabled) })
        .where('channel_id', '=', channelId)
        .execute();
    });
  }

  async recordTest(channelId: number, responseTimeMs: number, testedAt: number): Promise<void> {
    await this.db.updateTable('channels').set({ response_time: responseTimeMs, test_time: testedAt }).where('id', '=', channelId).execute();
  }

  async rootEmail(): Promise<string> {
    const row = await this.db.selectFrom('users').select('email').where('role', '=', 100).where('deleted_at', 'is', null).orderBy('id').executeTakeFirst();
    return row?.email ?? '';
  }
}
