import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import type { SqlDialect } from '../platform/sql-dsn.ts';

/**
 * The databases a suite runs on: SQLite always; PostgreSQL and MySQL when TEST_PG_URL and
 * TEST_MYSQL_URL are set (CI sets both and fails when one is skipped). Each call to `create` makes a
 * fresh, empty database, so test files never see each other's rows.
 */
export interface TestDatabase {
  readonly dialect: SqlDialect;
  /** A DSN for SQL_DSN (or SQLITE_PATH for SQLite, with an empty DSN). */
  create(): Promise<{ sqlDsn: string; sqlitePath: string; drop(): Promise<void> }>;
}

const uniqueName = () => `sb_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

const sqlite: TestDatabase = {
  dialect: 'sqlite',
  async create() {
    const path = join(tmpdir(), `${uniqueName()}.db`);
    return {
      sqlDsn: '',
      sqlitePath: path,
      async drop() {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
      },
    };
  },
};

function postgres(adminUrl: string): TestDatabase {
  return {
    dialect: 'postgres',
    async create() {
      const name = uniqueName();
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      return {
        sqlDsn: withDatabase(adminUrl, name),
        sqlitePath: '',
        async drop() {
          const client = new Client({ connectionString: adminUrl });
          await client.connect();
          await client.query(`drop database if exists ${name} with (force)`);
          await client.end();
        },
      };
    },
  };
}

function mysql(adminUrl: string): TestDatabase {
  return {
    dialect: 'mysql',
    async create() {
      const name = uniqueName();
      const admin = await createConnection({ uri: adminUrl });
      await admin.query(`create database ${name} character set utf8mb4`);
      await admin.end();
      return {
        sqlDsn: withDatabase(adminUrl, name),
        sqlitePath: '',
        async drop() {
          const client = await createConnection({ uri: adminUrl });
          await client.query(`drop database if exists ${name}`);
          await client.end();
        },
      };
    },
  };
}

export function testDatabases(env: Record<string, string | undefined> = process.env): TestDatabase[] {
  const list: TestDatabase[] = [sqlite];
  if (env.TEST_PG_URL) list.push(postgres(env.TEST_PG_URL));
  if (env.TEST_MYSQL_URL) list.push(mysql(env.TEST_MYSQL_URL));
  return list;
}
