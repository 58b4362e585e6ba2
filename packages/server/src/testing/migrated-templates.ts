import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { Client } from 'pg';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { migrateLogDatabase, migrateMainDatabase } from '../core/db/migrate.ts';
import { openDatabase } from '../core/platform/database.ts';

/**
 * The migrated templates test databases are cloned from: one per engine and test run, migrated once
 * (main and log tables, their migration history), built by the first test file that asks for it.
 * The suite's global setup names the run (`templateRunVariable`) and drops the run's templates at
 * the end, so a run always clones from the migrations as they are in its working tree.
 */
export const templateRunVariable = 'SWITCHBOARD_TEST_TEMPLATES';

/** The run's template name; without the suite's global setup there is no run to clone from. */
export function templateName(env: Record<string, string | undefined> = process.env): string {
  const run = env[templateRunVariable];
  if (!run || !/^[a-z0-9]+$/.test(run)) {
    throw new Error(
      `${templateRunVariable} is not set (or not lowercase letters and digits): migrated test databases are cloned from the run's templates, which the suite's global setup names (vitest.config.ts)`,
    );
  }
  return `sb_tpl_${run}`;
}

/** A name for the run's templates: the process and some randomness, lowercase letters and digits. */
export function newTemplateRun(): string {
  return `${process.pid.toString(36)}${randomBytes(4).toString('hex')}`;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Migrates the database at `dsn` (or the SQLite file) as a first start would, then closes it. */
async function migrateInto(dsn: string, sqlitePath: string): Promise<void> {
  const handle = await openDatabase(dsn, sqlitePath);
  try {
    await migrateMainDatabase(handle.db, handle.dialect);
    await migrateLogDatabase(handle.db, handle.dialect);
    // SQLite: everything into the main file, which is what gets copied.
    if (handle.dialect === 'sqlite') await sql`pragma wal_checkpoint(TRUNCATE)`.execute(handle.db);
  } finally {
    await handle.close();
  }
}

// SQLite ---------------------------------------------------------------------------------------

export function sqliteTemplatePath(env: Record<string, string | undefined> = process.env): string {
  return join(tmpdir(), `${templateName(env)}.db`);
}

/**
 * The run's SQLite template file, built when missing: into a file of this process, then renamed into
 * place. Two files building at once both rename a complete template; the last one stays.
 */
export async function sqliteTemplate(): Promise<string> {
  const path = sqliteTemplatePath();
  if (existsSync(path)) return path;
  const building = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    await migrateInto('', building);
    renameSync(building, path);
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${building}${suffix}`, { force: true });
  }
  return path;
}

// PostgreSQL -----------------------------------------------------------------------------------

const pgErrorCode = (error: unknown) => (error as { code?: string }).code;

/**
 * Creates `name` as a copy of the run's template (`CREATE DATABASE … TEMPLATE`, about 0.15 s against
 * 3 s to migrate), building the template first when it does not exist yet.
 */
export async function cloneFromPostgresTemplate(adminUrl: string, name: string): Promise<void> {
  const template = templateName();
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    try {
      await admin.query(`create database ${name} template ${template}`);
    } catch (error) {
      if (pgErrorCode(error) !== '3D000') throw error;
      await buildPostgresTemplate(admin, adminUrl, template);
      await admin.query(`create database ${name} template ${template}`);
    }
  } finally {
    await admin.end();
  }
}

/**
 * Migrates a database of this process, then renames it to the template. Cloning needs a template
 * nobody is connected to, so it only gets its name once migrated; a file that lost the race to
 * another drops its own.
 */
async function buildPostgresTemplate(admin: Client, adminUrl: string, template: string): Promise<void> {
  const building = `${template}_b${randomBytes(4).toString('hex')}`;
  await admin.query(`create database ${building}`);
  try {
    await migrateInto(withDatabase(adminUrl, building), '');
    await renameWhenReleased(admin, building, template);
  } catch (error) {
    await admin.query(`drop database if exists ${building} with (force)`);
    if (pgErrorCode(error) !== '42P04') throw error;
  }
}

/** The server ends a closed connection's backend a moment after the client left: wait for it. */
async function renameWhenReleased(admin: Client, from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin.query(`alter database ${from} rename to ${to}`);
      return;
    } catch (error) {
      if (pgErrorCode(error) !== '55006' || attempt >= 50) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

// MySQL / MariaDB ------------------------------------------------------------------------------

interface MysqlTemplate {
  readonly name: string;
  readonly tables: readonly string[];
  /** Tables with rows (the migration history and its locks): copied, the others only created. */
  readonly filled: readonly string[];
}

const mysqlTemplates = new Map<string, Promise<MysqlTemplate>>();

/**
 * Creates `name` as a copy of the run's template: `CREATE TABLE … LIKE` for every table and the rows
 * of those that have any, in one multi-statement round trip (about 0.3–0.8 s against 1–2 s, and 10 s
 * on a loaded machine, to migrate). MySQL has no database templates and no database rename, so the
 * template is built under a named lock by the first file that needs it.
 */
export async function cloneFromMysqlTemplate(adminUrl: string, name: string): Promise<void> {
  const admin = await createConnection({ uri: adminUrl, multipleStatements: true });
  try {
    const key = `${adminUrl} ${templateName()}`;
    let template = mysqlTemplates.get(key);
    if (!template) {
      template = mysqlTemplate(admin, adminUrl, templateName());
      mysqlTemplates.set(key, template);
      template.catch(() => mysqlTemplates.delete(key));
    }
    const { name: source, tables, filled } = await template;
    const statements = [
      `create database ${name} character set utf8mb4`,
      ...tables.map((table) => `create table ${name}.\`${table}\` like ${source}.\`${table}\``),
      ...filled.map((table) => `insert into ${name}.\`${table}\` select * from ${source}.\`${table}\``),
    ];
    await admin.query(statements.join(';\n'));
  } finally {
    await admin.end();
  }
}

async function mysqlTemplate(admin: Connection, adminUrl: string, template: string): Promise<MysqlTemplate> {
  const [locked] = await admin.query<RowDataPacket[]>('select get_lock(?, 300) as locked', [template]);
  if (locked[0]?.locked !== 1) throw new Error(`no lock on the MySQL test template ${template} within 300 s`);
  try {
    const [found] = await admin.query<RowDataPacket[]>('select 1 from information_schema.schemata where schema_name = ?', [template]);
    if (found.length === 0) {
      await admin.query(`create database ${template} character set utf8mb4`);
      await migrateInto(withDatabase(adminUrl, template), '');
    }
  } finally {
    await admin.query('select release_lock(?)', [template]);
  }
  const [tables] = await admin.query<RowDataPacket[]>(
    "select table_name as name from information_schema.tables where table_schema = ? and table_type = 'BASE TABLE' order by table_name",
    [template],
  );
  const names = tables.map((row) => String(row.name));
  const filled: string[] = [];
  for (const table of names) {
    const [rows] = await admin.query<RowDataPacket[]>(`select 1 from ${template}.\`${table}\` limit 1`);
    if (rows.length > 0) filled.push(table);
  }
  return { name: template, tables: names, filled };
}

// The run's end --------------------------------------------------------------------------------

/** Drops the run's templates on every engine (the suite's global teardown). */
export async function dropTemplates(env: Record<string, string | undefined>): Promise<void> {
  const template = templateName(env);
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${sqliteTemplatePath(env)}${suffix}`, { force: true });
  if (env.TEST_PG_URL) {
    const admin = new Client({ connectionString: env.TEST_PG_URL });
    await admin.connect();
    try {
      // The template and any build a failed file left behind (`<template>_b…`).
      const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where left(datname, length($1)) = $1', [template]);
      for (const { datname } of rows) await admin.query(`drop database if exists ${datname} with (force)`);
    } finally {
      await admin.end();
    }
  }
  if (env.TEST_MYSQL_URL) {
    const admin = await createConnection({ uri: env.TEST_MYSQL_URL });
    try {
      await admin.query(`drop database if exists ${template}`);
    } finally {
      await admin.end();
    }
  }
}
