import type { Kysely } from 'kysely';
import type { Database } from '../../../core/db/schema.ts';

export interface CacheLogRow {
  readonly model_name: string;
  readonly token_id: number;
  readonly token_name: string;
  readonly quota: number;
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly other: string | null;
}

/** The most rows one savings report reads: a report over a busy week stays a bounded query. */
const maxRows = 100_000;

/** Consume rows that a response-cache rule applied to (their `other` says `response_cache`), newest first. */
export class CacheSavingsRepository {
  private readonly db: Kysely<Database>;

  constructor(db: Kysely<Database>) {
    this.db = db;
  }

  rowsSince(since: number): Promise<CacheLogRow[]> {
    return this.db
      .selectFrom('logs')
      .select(['model_name', 'token_id', 'token_name', 'quota', 'prompt_tokens', 'completion_tokens', 'other'])
      .where('type', '=', 2)
      .where('created_at', '>=', since)
      .where('other', 'like', '%"response_cache":"%')
      .orderBy('id', 'desc')
      .limit(maxRows)
      .execute() as Promise<CacheLogRow[]>;
  }
}
