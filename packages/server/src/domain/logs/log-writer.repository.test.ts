import { beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../core/platform/clock.ts';
import type { DatabaseHandle } from '../../core/platform/database.ts';
import { useMigratedDatabase } from '../../testing/migrated-test-database.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import type { LogEntry } from './log-row.ts';
import { LogWriter } from './log-writer.repository.ts';

const now = 1_790_000_000;
const clock: Clock = { now: () => now * 1000, unixSeconds: () => now };

/** A consume row with every column set, text that needs quoting and escaping included. */
const entry = (index: number): LogEntry => ({
  user_id: 7,
  type: 2,
  created_at: now - index,
  content: `模型倍率 1, it's "quoted" \\ ${index}`,
  username: 'alice',
  token_name: 'token-a',
  model_name: 'gpt-4o',
  quota: 100 + index,
  prompt_tokens: 5,
  completion_tokens: index,
  use_time: 2,
  is_stream: index % 2,
  channel_id: 3,
  token_id: 9,
  group: 'vip',
  ip: '127.0.0.1',
  request_id: `req-${index}`,
  other: JSON.stringify({ frt: index, admin_info: { use_channel: [3] } }),
});

describe.each(testDatabases())('log writer batches on $dialect', (database) => {
  const opened = useMigratedDatabase(database);
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = opened();
    await handle.db.insertInto('switchboard_quota_journal').values({ name: 'journal-a', quota_seq: 0, log_seq: 0, created_at: now }).execute();
  });

  // On SQLite both ways: through the writer thread (a file database) and the statement text (without it).
  const writers = () =>
    handle.batchWorker ? [new LogWriter(handle, clock), new LogWriter({ db: handle.db, dialect: handle.dialect }, clock)] : [new LogWriter(handle, clock)];

  it('writes a batch larger than one statement whole, every column as given, and moves the journal mark with it', async () => {
    let seq = 0;
    for (const writer of writers()) {
      await handle.db.deleteFrom('logs').execute();
      seq += 1_000;
      const entries = Array.from({ length: 1_205 }, (_, index) => entry(index));
      await writer.recordMany(entries, { journal: 'journal-a', seq });
      const rows = await handle.db.selectFrom('logs').selectAll().orderBy('request_id').execute();
      expect(rows).toHaveLength(1_205);
      const byRequest = new Map(rows.map((row) => [row.request_id, row]));
      for (const index of [0, 999, 1_000, 1_204]) {
        const { id: _id, ...row } = byRequest.get(`req-${index}`)!;
        const expected = entry(index);
        expect({ ...row, quota: Number(row.quota), is_stream: Number(row.is_stream) }).toEqual({ ...expected, quota: Number(expected.quota) });
      }
      const journal = await handle.db.selectFrom('switchboard_quota_journal').select('log_seq').where('name', '=', 'journal-a').executeTakeFirstOrThrow();
      expect(Number(journal.log_seq)).toBe(seq);
    }
  });

  it('fills the columns a row leaves out with their empty values, without a mark', async () => {
    for (const writer of writers()) {
      await handle.db.deleteFrom('logs').execute();
      await writer.recordMany([
        { user_id: 1, type: 4, content: 'one' },
        { user_id: 2, type: 3, content: 'two' },
      ]);
      const rows = await handle.db
        .selectFrom('logs')
        .select(['user_id', 'type', 'content', 'created_at', 'username', 'quota', 'other'])
        .orderBy('user_id')
        .execute();
      expect(rows.map((row) => ({ ...row, quota: Number(row.quota) }))).toEqual([
        { user_id: 1, type: 4, content: 'one', created_at: now, username: '', quota: 0, other: '' },
        { user_id: 2, type: 3, content: 'two', created_at: now, username: '', quota: 0, other: '' },
      ]);
    }
  });
});
