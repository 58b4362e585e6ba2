import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateLogDatabase, migrateMainDatabase } from '../core/db/migrate.ts';
import { type DatabaseHandle, openDatabase } from '../core/platform/database.ts';
import { templateName } from './migrated-templates.ts';
import { testDatabases, type CreatedTestDatabase } from './test-databases.ts';

type Row = Record<string, unknown>;

/** Everything a migration makes, in a form two databases of one engine can be compared by. */
async function schemaOf(handle: DatabaseHandle): Promise<unknown> {
  const rows = async (query: ReturnType<typeof sql<Row>>) => (await query.execute(handle.db)).rows;
  if (handle.dialect === 'sqlite') return rows(sql<Row>`select type, name, tbl_name, sql from sqlite_master order by type, name`);
  if (handle.dialect === 'postgres') {
    return {
      columns: await rows(
        sql<Row>`select table_name, column_name, data_type, character_maximum_length, is_nullable, column_default from information_schema.columns
                 where table_schema = 'public' order by table_name, column_name`,
      ),
      indexes: await rows(sql<Row>`select tablename, indexname, indexdef from pg_indexes where schemaname = 'public' order by tablename, indexname`),
    };
  }
  const tables = await rows(sql<Row>`select table_name as name from information_schema.tables where table_schema = database() order by table_name`);
  const definitions: unknown[] = [];
  for (const { name } of tables) definitions.push((await sql.raw<Row>(`show create table \`${String(name)}\``).execute(handle.db)).rows);
  return definitions;
}

async function history(handle: DatabaseHandle): Promise<unknown> {
  const main = await sql<Row>`select name, timestamp from switchboard_migration order by name`.execute(handle.db);
  const log = await sql<Row>`select name, timestamp from switchboard_log_migration order by name`.execute(handle.db);
  return { main: main.rows, log: log.rows };
}

describe.each(testDatabases())('test databases on $dialect', (database) => {
  const opened: DatabaseHandle[] = [];
  const created: CreatedTestDatabase[] = [];
  const open = async (made: Promise<CreatedTestDatabase>) => {
    const one = await made;
    created.push(one);
    const handle = await openDatabase(one.sqlDsn, one.sqlitePath);
    opened.push(handle);
    return handle;
  };
  afterAll(async () => {
    for (const handle of opened) await handle.close();
    for (const one of created) await one.drop();
  });

  it('clones the run’s template: the same tables, columns and indexes as a database migrated from empty', async () => {
    const migrated = await open(database.create());
    await migrateMainDatabase(migrated.db, migrated.dialect);
    await migrateLogDatabase(migrated.db, migrated.dialect);
    const clone = await open(database.createMigrated());
    expect(await schemaOf(clone)).toEqual(await schemaOf(migrated));
    expect((await history(clone)) as { main: unknown[] }).toMatchObject({
      main: expect.arrayContaining([expect.objectContaining({ name: '0001-core-tables' })]),
    });
    // Two migrations from empty (this one and, when first, the template's): 10 s each on a busy MariaDB.
  }, 120_000);

  it('records the clone as migrated, so a start migrates nothing', async () => {
    const clone = await open(database.createMigrated());
    const before = await history(clone);
    await migrateMainDatabase(clone.db, clone.dialect);
    await migrateLogDatabase(clone.db, clone.dialect);
    expect(await history(clone)).toEqual(before);
  });

  it('gives every call a database of its own, and an empty one to tests of migrations', async () => {
    const first = await open(database.createMigrated());
    const second = await open(database.createMigrated());
    await sql`insert into switchboard_migration (name, timestamp) values ('9999-only-here', '2026-01-01')`.execute(first.db);
    expect(JSON.stringify(await history(second))).not.toContain('9999-only-here');
    const empty = await open(database.create());
    expect(await schemaOf(empty)).toEqual(database.dialect === 'postgres' ? { columns: [], indexes: [] } : []);
  });
});

describe('the run’s template name', () => {
  it('comes from the suite’s global setup, and its absence is said plainly', () => {
    expect(templateName({ SWITCHBOARD_TEST_TEMPLATES: 'abc123' })).toBe('sb_tpl_abc123');
    expect(() => templateName({})).toThrow(/SWITCHBOARD_TEST_TEMPLATES is not set/);
    expect(() => templateName({ SWITCHBOARD_TEST_TEMPLATES: 'x; drop database y' })).toThrow(/not set/);
  });
});
