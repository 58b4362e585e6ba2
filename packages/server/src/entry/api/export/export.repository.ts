import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.ts';
import { type ChannelExportRow, channelExportFields } from './channel-export-columns.ts';
import { type RedemptionExportRow, redemptionExportFields } from './redemption-export-columns.ts';
import { type TokenExportRow, tokenExportFields } from './token-export-columns.ts';
import { type UserExportRow, userExportFields } from './user-export-columns.ts';

/**
 * Keyset batches of the main database's exported tables, by ascending id: `afterId` is the last id of
 * the previous batch. Each selects only the exported fields (no channel key, no password).
 */
export class ExportRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  /** Users not deregistered. */
  users(afterId: number, limit: number): Promise<UserExportRow[]> {
    return this.db.selectFrom('users').select(userExportFields).where('deleted_at', 'is', null).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  channels(afterId: number, limit: number): Promise<ChannelExportRow[]> {
    return this.db.selectFrom('channels').select(channelExportFields).where('id', '>', afterId).orderBy('id').limit(limit).execute();
  }

  /** One user's live tokens, as the token page lists them. */
  tokens(userId: number, afterId: number, limit: number): Promise<TokenExportRow[]> {
    return this.db
      .selectFrom('tokens')
      .select(tokenExportFields)
      .where('user_id', '=', userId)
      .where('deleted_at', 'is', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  redemptions(afterId: number, limit: number): Promise<RedemptionExportRow[]> {
    return this.db
      .selectFrom('redemptions')
      .select(redemptionExportFields)
      .where('deleted_at', 'is', null)
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }
}
