import type { Insertable, Kysely } from 'kysely';
import type { Database, LogsTable } from '../db/schema.ts';
import type { Clock } from '../platform/clock.ts';

/** A log row: who and what kind are required, every other column defaults to empty or zero. */
export type LogEntry = Pick<Insertable<LogsTable>, 'user_id' | 'type'> & Partial<Omit<Insertable<LogsTable>, 'id'>>;

/**
 * Writes rows of the `logs` table (which may live in LOG_SQL_DSN). Console actions (top-ups, admin
 * changes) write one row right away with `record`; high-volume writers (the relay) batch through
 * their own queue and flush with `recordMany`.
 */
export class LogWriter {
  private readonly db: Kysely<Database>;
  private readonly clock: Clock;

  constructor(db: Kysely<Database>, clock: Clock) {
    this.db = db;
    this.clock = clock;
  }

  private complete(entry: LogEntry): Insertable<LogsTable> {
    return {
      created_at: this.clock.unixSeconds(),
      content: '',
      username: '',
      token_name: '',
      model_name: '',
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 0,
      is_stream: 0,
      channel_id: 0,
      token_id: 0,
      group: '',
      ip: '',
      request_id: '',
      other: '',
      ...entry,
    };
  }

  async record(entry: LogEntry): Promise<void> {
    await this.db.insertInto('logs').values(this.complete(entry)).execute();
  }

  async recordMany(entries: readonly LogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.db.insertInto('logs').values(entries.map((entry) => this.complete(entry))).execute();
  }
}
