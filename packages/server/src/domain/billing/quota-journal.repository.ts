import type { DatabaseHandle } from '../../core/platform/database.ts';

/**
 * The rows of `switchboard_quota_journal` (migration 0016): one per journal, in the main database
 * (`quota_seq`) and in the log database (`log_seq`; the same row when logs live in the main one).
 * The batch writes move the watermarks themselves (QuotaRepository, LogWriter); this registers,
 * reads and forgets journals.
 */
export class QuotaJournalRepository {
  private readonly main: DatabaseHandle;
  private readonly logs: DatabaseHandle;

  constructor(main: DatabaseHandle, logs: DatabaseHandle) {
    this.main = main;
    this.logs = logs;
  }

  private get separateLogDatabase(): boolean {
    return this.logs !== this.main;
  }

  /** Before the first record is appended: from now on the journal belongs to these databases. */
  async register(name: string, now: number): Promise<void> {
    await this.main.db.insertInto('switchboard_quota_journal').values({ name, quota_seq: 0, log_seq: 0, created_at: now }).execute();
    if (this.separateLogDatabase)
      await this.logs.db.insertInto('switchboard_quota_journal').values({ name, quota_seq: 0, log_seq: 0, created_at: now }).execute();
  }

  /** The quota watermarks of those of `names` registered in the main database (the journals that are ours). */
  async quotaMarks(names: readonly string[]): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const rows = await this.main.db
      .selectFrom('switchboard_quota_journal')
      .select(['name', 'quota_seq'])
      .where('name', 'in', [...names])
      .execute();
    return new Map(rows.map((row) => [row.name, Number(row.quota_seq)]));
  }

  /** The log watermark of a journal; a log database without its row (changed since) gets one at 0. */
  async logMark(name: string, now: number): Promise<number> {
    const row = await this.logs.db.selectFrom('switchboard_quota_journal').select('log_seq').where('name', '=', name).executeTakeFirst();
    if (row) return Number(row.log_seq);
    await this.logs.db.insertInto('switchboard_quota_journal').values({ name, quota_seq: 0, log_seq: 0, created_at: now }).execute();
    return 0;
  }

  /** After the journal's files are gone. */
  async forget(name: string): Promise<void> {
    await this.main.db.deleteFrom('switchboard_quota_journal').where('name', '=', name).execute();
    if (this.separateLogDatabase) await this.logs.db.deleteFrom('switchboard_quota_journal').where('name', '=', name).execute();
  }
}
