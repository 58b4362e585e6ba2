import pg from 'pg';

/**
 * Writes many rows fast, past the product's query builder: multi-row INSERTs in big transactions on
 * SQLite (better-sqlite3, synchronous, prepared once per batch size) and prepared multi-row INSERTs
 * on PostgreSQL. Only the bench's data set generator uses it, on a database nobody else has open.
 */
export interface BulkWriter {
  readonly dialect: 'sqlite' | 'postgres';
  /** Inserts `rows` rows whose values lie flat in `values`, `columns.length` per row. */
  insert(table: string, columns: readonly string[], values: readonly unknown[], rows: number): Promise<void>;
  exec(statement: string): Promise<void>;
  query<Row>(statement: string): Promise<Row[]>;
  close(): Promise<void>;
}

const quoted = (name: string) => `"${name}"`;

function insertText(table: string, columns: readonly string[], rows: number, placeholder: (index: number) => string): string {
  const tuples: string[] = [];
  for (let row = 0; row < rows; row += 1) {
    tuples.push(`(${columns.map((_, column) => placeholder(row * columns.length + column)).join(',')})`);
  }
  return `insert into ${quoted(table)} (${columns.map(quoted).join(',')}) values ${tuples.join(',')}`;
}

/** Rows per statement: SQLite allows 32,766 parameters per statement, PostgreSQL 65,535. */
export function rowsPerStatement(dialect: 'sqlite' | 'postgres', columns: number): number {
  return Math.floor((dialect === 'sqlite' ? 32_000 : 65_000) / columns);
}

export async function openBulkWriter(sqlDsn: string, sqlitePath: string): Promise<BulkWriter> {
  if (sqlDsn.startsWith('postgres')) return openPostgresWriter(sqlDsn);
  const { default: SqliteDatabase } = await import('better-sqlite3');
  const sqlite = new SqliteDatabase(sqlitePath);
  // Generation only: a crash leaves a half-built cache file that is deleted and rebuilt anyway.
  sqlite.pragma('journal_mode = OFF');
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  // A statement whose parameter count is known only at run time.
  const prepared = new Map<string, { run(...parameters: unknown[]): unknown }>();
  return {
    dialect: 'sqlite',
    async insert(table, columns, values, rows) {
      const perStatement = rowsPerStatement('sqlite', columns.length);
      // One transaction per call: callers hand over tens of thousands of rows at a time.
      sqlite.exec('begin');
      try {
        for (let start = 0; start < rows; start += perStatement) {
          const count = Math.min(perStatement, rows - start);
          const text = insertText(table, columns, count, () => '?');
          let statement = prepared.get(text);
          if (!statement) {
            statement = sqlite.prepare(text) as unknown as { run(...parameters: unknown[]): unknown };
            prepared.set(text, statement);
          }
          statement.run(...values.slice(start * columns.length, (start + count) * columns.length));
        }
        sqlite.exec('commit');
      } catch (error) {
        sqlite.exec('rollback');
        throw error;
      }
    },
    async exec(statement) {
      sqlite.exec(statement);
    },
    async query<Row>(statement: string) {
      return sqlite.prepare(statement).all() as Row[];
    },
    async close() {
      sqlite.close();
    },
  };
}

async function openPostgresWriter(sqlDsn: string): Promise<BulkWriter> {
  const client = new pg.Client({ connectionString: sqlDsn });
  await client.connect();
  await client.query('set synchronous_commit = off');
  return {
    dialect: 'postgres',
    async insert(table, columns, values, rows) {
      const perStatement = rowsPerStatement('postgres', columns.length);
      await client.query('begin');
      try {
        for (let start = 0; start < rows; start += perStatement) {
          const count = Math.min(perStatement, rows - start);
          const text = insertText(table, columns, count, (index) => `$${index + 1}`);
          // Named: PostgreSQL parses and plans a full batch's statement once per connection.
          await client.query({
            name: `bulk-${table}-${count}`,
            text,
            values: values.slice(start * columns.length, (start + count) * columns.length) as unknown[],
          });
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      }
    },
    async exec(statement) {
      await client.query(statement);
    },
    async query<Row>(statement: string) {
      return (await client.query(statement)).rows as Row[];
    },
    async close() {
      await client.end();
    },
  };
}
