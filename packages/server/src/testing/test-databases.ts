import { randomBytes } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createConnection } from 'mysql2/promise';
import type { SqlDialect } from '../core/platform/sql-dsn.ts';
import { cloneFromMysqlTemplate, cloneFromPostgresTemplate, sqliteTemplate, withDatabase } from './migrated-templates.ts';

/** A database made for one test file: how to reach it, and how to get rid of it. */
export interface CreatedTestDatabase {
  /** A DSN for SQL_DSN (empty for SQLite, whose file is `sqlitePath`). */
  readonly sqlDsn: string;
  readonly sqlitePath: string;
  drop(): Promise<void>;
}

/**
 * The databases a suite runs on: SQLite always; PostgreSQL and MySQL when TEST_PG_URL and
 * TEST_MYSQL_URL are set (CI sets both and fails when one is skipped). Every call makes a database of
 * its own, so test files never see each other's rows.
 */
export interface TestDatabase {
  readonly dialect: SqlDialect;
  /**
   * A fresh, empty database: for the tests of migrations themselves, of opening a new-api database in
   * place, and of a first start that migrates.
   */
  create(): Promise<CreatedTestDatabase>;
  /**
   * A copy of the run's migrated template: every table of the main and log migrations, and their
   * history, so a start finds nothing to migrate. What every other test starts from.
   */
  createMigrated(): Promise<CreatedTestDatabase>;
}

const uniqueName = () => `sb_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;

function sqliteFile(path: string): CreatedTestDatabase {
  return {
    sqlDsn: '',
    sqlitePath: path,
    async drop() {
      for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
    },
  };
}

const sqlite: TestDatabase = {
  dialect: 'sqlite',
  async create() {
    return sqliteFile(join(tmpdir(), `${uniqueName()}.db`));
  },
  async createMigrated() {
    const path = join(tmpdir(), `${uniqueName()}.db`);
    copyFileSync(await sqliteTemplate(), path);
    return sqliteFile(path);
  },
};

function postgres(adminUrl: string): TestDatabase {
  const created = (name: string): CreatedTestDatabase => ({
    sqlDsn: withDatabase(adminUrl, name),
    sqlitePath: '',
    async drop() {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  });
  return {
    dialect: 'postgres',
    async create() {
      const name = uniqueName();
      const admin = new Client({ connectionString: adminUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      return created(name);
    },
    async createMigrated() {
      const name = uniqueName();
      await cloneFromPostgresTemplate(adminUrl, name);
      return created(name);
    },
  };
}

function mysql(adminUrl: string): TestDatabase {
  const created = (name: string): CreatedTestDatabase => ({
    sqlDsn: withDatabase(adminUrl, name),
    sqlitePath: '',
    async drop() {
      const client = await createConnection({ uri: adminUrl });
      await client.query(`drop database if exists ${name}`);
      await client.end();
    },
  });
  return {
    dialect: 'mysql',
    async create() {
      const name = uniqueName();
      const admin = await createConnection({ uri: adminUrl });
      await admin.query(`create database ${name} character set utf8mb4`);
      await admin.end();
      return created(name);
    },
    async createMigrated() {
      const name = uniqueName();
      await cloneFromMysqlTemplate(adminUrl, name);
      return created(name);
    },
  };
}

export function testDatabases(env: Record<string, string | undefined> = process.env): TestDatabase[] {
  const list: TestDatabase[] = [sqlite];
  if (env.TEST_PG_URL) list.push(postgres(env.TEST_PG_URL));
  if (env.TEST_MYSQL_URL) list.push(mysql(env.TEST_MYSQL_URL));
  return list;
}
