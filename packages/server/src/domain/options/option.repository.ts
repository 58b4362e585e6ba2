import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.ts';
import type { SqlDialect } from '../../core/platform/sql-dsn.ts';

export class OptionRepository {
  private readonly db: Kysely<Database>;
  private readonly dialect: SqlDialect;

  constructor(db: Kysely<Database>, dialect: SqlDialect) {
    this.db = db;
    this.dialect = dialect;
  }

  async readAll(): Promise<Map<string, string>> {
    const rows = await this.db.selectFrom('options').select(['key', 'value']).execute();
    return new Map(rows.map((row) => [row.key, row.value ?? '']));
  }

  /** Inserts the keys that are missing; never overwrites a stored value. */
  async insertMissing(entries: ReadonlyArray<readonly [string, string]>): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(([key, value]) => ({ key, value }));
    const insert = this.db.insertInto('options').values(rows);
    await (this.dialect === 'mysql' ? insert.ignore() : insert.onConflict((conflict) => conflict.column('key').doNothing())).execute();
  }

  async upsert(key: string, value: string): Promise<void> {
    const insert = this.db.insertInto('options').values({ key, value });
    await (
      this.dialect === 'mysql' ? insert.onDuplicateKeyUpdate({ value }) : insert.onConflict((conflict) => conflict.column('key').doUpdateSet({ value }))
    ).execute();
  }
}
