import { CompiledQuery, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.ts';
import type { JournalMark } from '../../core/platform/append-journal.ts';
import type { Clock } from '../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import { safeParseJson } from '../../core/platform/safe-json.ts';
import type { SqlDialect } from '../../core/platform/sql-dsn.ts';
import { logColumns, logRowText, logRowValues, type CompleteLogRow, type LogEntry, type LogRowText, type LogValue } from './log-row.ts';

/** The quota journal's log watermark, moved by the SQLite writer thread in the rows' own transaction. */
const sqliteLogMarkUpdate = 'update "switchboard_quota_journal" set "log_seq" = ? where "name" = ?';

/**
 * One multi-row insert of `rowCount` log rows in the engine's quoting and placeholders, made once per
 * row count. Batches are written with it rather than through Kysely's builder, which made a syntax
 * node for each of the 3,600 values of a 200-row batch and compiled them again on every flush.
 */
const bulkInserts = new Map<string, string>();
const maxRowsPerInsert = 1_000;
function bulkLogInsert(dialect: SqlDialect, rowCount: number): string {
  const key = `${dialect}:${rowCount}`;
  let text = bulkInserts.get(key);
  if (text === undefined) {
    const quote = dialect === 'mysql' ? (name: string) => `\`${name}\`` : (name: string) => `"${name}"`;
    let parameter = 0;
    const placeholder = dialect === 'postgres' ? () => `$${(parameter += 1)}` : () => '?';
    const rows = Array.from({ length: rowCount }, () => `(${logColumns.map(placeholder).join(', ')})`);
    text = `insert into ${quote('logs')} (${logColumns.map(quote).join(', ')}) values ${rows.join(', ')}`;
    bulkInserts.set(key, text);
  }
  return text;
}

/**
 * Rows per insert statement in the SQLite writer thread: a statement per 50 rows cost 40 % less CPU
 * per row than a statement per row (one call into SQLite and one set of bindings per 50 rows). What
 * a batch has beyond whole fifties goes one row per statement, so the thread prepares two texts only.
 */
const sqliteRowsPerInsert = 50;

/**
 * The SQLite writer thread's batch (its `BatchStatement[]` as JSON) for these rows, built from each
 * row's own JSON text: the rows of a 50-row insert are one parameter list, so their texts go in
 * without their brackets. The rows were stringified when they were settled; the batch is one join of
 * all the pieces at the end (its only copy). Stringifying the batch's nested arrays whole, after
 * flattening them, cost more than twice as much per row.
 */
function sqliteLogBatch(texts: readonly LogRowText[], mark: JournalMark | undefined): string {
  const whole = texts.length - (texts.length % sqliteRowsPerInsert);
  const pieces: string[] = ['['];
  const statement = (sql: string, writeRows: () => void) => {
    pieces.push(pieces.length === 1 ? '' : ',', `{"sql":${JSON.stringify(sql)},"rows":[`);
    writeRows();
    pieces.push(']}');
  };
  if (whole > 0)
    statement(bulkLogInsert('sqlite', sqliteRowsPerInsert), () => {
      for (let index = 0; index < whole; index += 1) {
        const opensList = index % sqliteRowsPerInsert === 0;
        pieces.push(opensList ? (index === 0 ? '[' : '],[') : ',', (texts[index] as string).slice(1, -1));
      }
      pieces.push(']');
    });
  if (whole < texts.length)
    statement(bulkLogInsert('sqlite', 1), () => {
      for (let index = whole; index < texts.length; index += 1) pieces.push(index === whole ? '' : ',', texts[index] as string);
    });
  if (mark) statement(sqliteLogMarkUpdate, () => pieces.push(JSON.stringify([mark.seq, mark.journal])));
  pieces.push(']');
  return pieces.join('');
}

/**
 * Writes rows of the `logs` table (which may live in LOG_SQL_DSN). Console actions (top-ups, admin
 * changes) write one row right away with `record`; high-volume writers (the relay) batch through
 * their own queue and flush with `recordMany`, which on SQLite commits in the batch worker thread.
 */
export class LogWriter {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;
  private readonly batchWorker: DatabaseHandle['batchWorker'];
  private readonly clock: Clock;

  constructor(database: Pick<DatabaseHandle, 'db' | 'dialect' | 'batchWorker'>, clock: Clock) {
    this.db = database.db;
    this.dialect = database.dialect;
    this.batchWorker = database.batchWorker;
    this.clock = clock;
  }

  async record(entry: LogEntry): Promise<void> {
    const values = logRowValues(entry, this.clock.unixSeconds());
    const row = Object.fromEntries(logColumns.map((column, index) => [column, values[index]])) as CompleteLogRow;
    await this.db.insertInto('logs').values(row).execute();
  }

  /**
   * Inserts the rows in one transaction; with `mark`, the quota journal's log watermark moves in it
   * too, so a replay after a crash inserts exactly the rows that are not here.
   */
  async recordMany(entries: readonly LogEntry[], mark?: JournalMark): Promise<void> {
    const now = this.clock.unixSeconds();
    await this.recordRows(
      entries.map((entry) => logRowText(entry, now)),
      mark,
    );
  }

  /** `recordMany` for rows already made into their text (the relay's queued rows, a journal's replayed ones). */
  async recordRows(texts: readonly LogRowText[], mark?: JournalMark): Promise<void> {
    if (texts.length === 0) return;
    if (this.batchWorker) {
      await this.batchWorker.runText(sqliteLogBatch(texts, mark));
      return;
    }
    // At most 1,000 rows (18,000 parameters) per statement: PostgreSQL and MySQL take 65,535.
    const inserts: CompiledQuery[] = [];
    for (let start = 0; start < texts.length; start += maxRowsPerInsert) {
      const chunk = texts.slice(start, start + maxRowsPerInsert);
      const values: LogValue[] = [];
      // Texts this process made (logRowText) or checked (a journal's, checkedLogRowText) always parse.
      for (const text of chunk) {
        const parsed = safeParseJson(text);
        if (!parsed.ok) throw new Error(`a queued log row is not JSON: ${parsed.error}`);
        values.push(...(parsed.value as LogValue[]));
      }
      inserts.push(CompiledQuery.raw(bulkLogInsert(this.dialect, chunk.length), values));
    }
    if (!mark && inserts.length === 1) {
      await this.db.executeQuery(inserts[0]!);
      return;
    }
    await this.db.transaction().execute(async (transaction) => {
      for (const insert of inserts) await transaction.executeQuery(insert);
      if (mark) await transaction.updateTable('switchboard_quota_journal').set({ log_seq: mark.seq }).where('name', '=', mark.journal).execute();
    });
  }
}
