import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqliteBatchWorker } from './sqlite-batch-worker.ts';

describe('SQLite batch worker', () => {
  const path = join(tmpdir(), `batch-worker-${process.pid}-${Date.now()}.db`);
  let worker: SqliteBatchWorker | undefined;
  afterEach(async () => {
    await worker?.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  });

  function openTable(): Database.Database {
    const database = new Database(path);
    database.pragma('journal_mode = WAL');
    database.exec('create table if not exists t (id integer primary key, n integer not null, label text)');
    return database;
  }

  it('commits a batch the main connection then reads, reusing one statement for many rows', async () => {
    const main = openTable();
    worker = new SqliteBatchWorker(path);
    await worker.run([
      {
        sql: 'insert into t (id, n, label) values (?, ?, ?)',
        rows: [
          [1, 10, 'a'],
          [2, 20, null],
        ],
      },
    ]);
    await worker.run([{ sql: 'update t set n = n + ? where id = ?', rows: [[5, 1]] }]);
    expect(main.prepare('select id, n, label from t order by id').all()).toEqual([
      { id: 1, n: 15, label: 'a' },
      { id: 2, n: 20, label: null },
    ]);
    main.close();
  });

  it('writes a batch whole or not at all, and reports why', async () => {
    const main = openTable();
    worker = new SqliteBatchWorker(path);
    const failing = worker.run([
      { sql: 'insert into t (id, n) values (?, ?)', rows: [[1, 1]] },
      { sql: 'insert into t (id, n) values (?, ?)', rows: [[2, null]] },
    ]);
    await expect(failing).rejects.toThrow(/NOT NULL/);
    expect(main.prepare('select count(*) as rows from t').get()).toEqual({ rows: 0 });
    // The worker goes on after a failed batch.
    await worker.run([{ sql: 'insert into t (id, n) values (?, ?)', rows: [[3, 3]] }]);
    expect(main.prepare('select id from t').all()).toEqual([{ id: 3 }]);
    main.close();
  });

  it('starts again after close, and an empty batch needs no thread', async () => {
    const main = openTable();
    worker = new SqliteBatchWorker(path);
    await worker.run([{ sql: 'insert into t (id, n) values (?, ?)', rows: [] }]);
    await worker.close();
    await worker.run([{ sql: 'insert into t (id, n) values (?, ?)', rows: [[4, 4]] }]);
    expect(main.prepare('select id from t').all()).toEqual([{ id: 4 }]);
    main.close();
  });
});
