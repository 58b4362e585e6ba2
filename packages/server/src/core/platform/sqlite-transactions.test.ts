import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.ts';

const folder = mkdtempSync(join(tmpdir(), 'sb-sqlite-transactions-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('a transaction on SQLite', () => {
  it('holds the write lock from its begin, so a commit of another connection between its read and its write cannot fail it', async () => {
    const path = join(folder, 'gateway.db');
    const handle = await openDatabase('', path);
    await sql`create table scratch (id integer primary key, note text)`.execute(handle.db);
    await sql`insert into scratch (note) values ('first')`.execute(handle.db);
    // Another connection to the same file, as the batch writer's thread or another worker has; it
    // does not wait for a lock, so its attempt below answers at once.
    const other = new Database(path);
    other.pragma('busy_timeout = 0');
    let otherWrite = 'not tried';
    try {
      await handle.db.transaction().execute(async (trx) => {
        await sql`select count(*) from scratch`.execute(trx);
        try {
          other.exec("insert into scratch (note) values ('from the other connection')");
          otherWrite = 'committed';
        } catch (error) {
          otherWrite = (error as { code?: string }).code ?? 'failed';
        }
        // With a deferred begin this write failed with SQLITE_BUSY_SNAPSHOT once the other had committed.
        await sql`delete from scratch where note = 'first'`.execute(trx);
      });
      expect(otherWrite).toBe('SQLITE_BUSY');
      const notes = await sql<{ note: string }>`select note from scratch`.execute(handle.db);
      expect(notes.rows).toEqual([]);
      // Once the transaction is over the other connection writes as usual.
      other.exec("insert into scratch (note) values ('after')");
    } finally {
      other.close();
      await handle.close();
    }
  });
});
