import { type CompiledQuery, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { seedChannel, seedToken } from '../../entry/relay/testing/relay-seed.ts';
import type { BatchStatement, BatchWriter } from '../../core/platform/sqlite-batch-worker.ts';
import { createTestApp, createTestUser, type TestApp } from '../../testing/test-app.ts';
import { testDatabases } from '../../testing/test-databases.ts';
import { PendingDeltas } from './pending-deltas.ts';
import { QuotaRepository } from './quota.repository.ts';

const rowCount = 12;

/**
 * The flusher's aggregated updates lock rows in one order whatever order the charges came in:
 * tokens, users, channels, each by ascending id. Two processes writing the same rows then never
 * deadlock (issue 33 item 7: PostgreSQL logged `deadlock detected` retries across two instances).
 * On PostgreSQL and MySQL a chunk of rows is one joined UPDATE, which takes its rows in its plan's
 * order (on PostgreSQL a hash join follows the table's physical order), so a lock by ascending id
 * comes first (issue 41).
 */
describe.each(testDatabases())('quota batch writes on $dialect', (database) => {
  let testApp: TestApp;
  const ids = { tokens: [] as number[], users: [] as number[], channels: [] as number[] };

  beforeAll(async () => {
    testApp = await createTestApp(database);
    for (let index = 0; index < rowCount; index += 1) {
      const user = await createTestUser(testApp, { quota: 1_000_000 });
      ids.users.push(user.id);
      ids.tokens.push((await seedToken(testApp, user.id, { remainQuota: 1_000_000 })).id);
      if (index < 3) ids.channels.push(await seedChannel(testApp, { key: `sk-order-${index}`, baseUrl: 'http://127.0.0.1:9', models: ['gpt-4o-mini'] }));
    }
  });
  afterAll(async () => {
    await testApp?.close();
  });

  /** One charge on every row, added in the order given (the order requests happened to finish). */
  function batchInOrder(order: (list: number[]) => number[], quota = 1): PendingDeltas {
    const batch = new PendingDeltas();
    for (const id of order(ids.tokens)) batch.addToken(id, -quota, quota);
    for (const id of order(ids.users)) batch.addUser(id, -quota, quota, 1);
    for (const id of order(ids.channels)) batch.addChannel(id, quota);
    return batch;
  }
  const descending = (list: number[]) => [...list].reverse();
  const ascending = (list: number[]) => [...list];
  const shuffled = (list: number[]) => [...list].sort((left, right) => ((left * 7919) % 13) - ((right * 7919) % 13));

  /** One statement as sent: its kind, table and the ids it names, in order. */
  interface Sent {
    readonly kind: 'lock' | 'update';
    readonly table: string;
    readonly ids: number[];
  }
  // Values per row in MySQL's joined UPDATE (the id, then one delta per column).
  const valuesPerRow: Record<string, number> = { tokens: 3, users: 4, channels: 2 };

  /**
   * Every statement the repository sends for a batch. SQLite's batch worker takes one update per row
   * (the file has one writer at a time, nothing to order), each recorded as its own `update`.
   */
  async function statementsSent(batch: PendingDeltas, rowsPerStatement?: number): Promise<Sent[]> {
    const sent: Sent[] = [];
    const handle = testApp.context.database;
    if (handle.batchWorker) {
      const real = handle.batchWorker;
      const recording: BatchWriter = {
        run: (statements: readonly BatchStatement[]) => {
          for (const statement of statements) {
            const table = /^update "(\w+)"/.exec(statement.sql)?.[1] ?? '';
            for (const row of statement.rows) sent.push({ kind: 'update', table, ids: [Number(row[row.length - 1])] });
          }
          return real.run(statements);
        },
        runText: (statements) => real.runText(statements),
        close: () => Promise.resolve(),
      };
      await new QuotaRepository({ db: handle.db, dialect: handle.dialect, batchWorker: recording }, rowsPerStatement).writeBatch(batch, 1_700_000_000);
      return sent;
    }
    const executor = handle.db.getExecutor();
    const recorder: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        const compiled: CompiledQuery = executor.compileQuery(node, queryId);
        const text = compiled.sql.trim();
        const lock = /^select id from [`"](\w+)[`"]/.exec(text);
        const update = /^update [`"](\w+)[`"]/.exec(text);
        const table = lock?.[1] ?? update?.[1];
        if (table && table !== 'switchboard_quota_journal') {
          const parameters = compiled.parameters;
          let ids: number[];
          if (database.dialect === 'postgres') ids = (parameters.find(Array.isArray) as unknown[]).map(Number);
          else if (lock) ids = parameters.map(Number);
          else ids = parameters.filter((_value, index) => index % valuesPerRow[table]! === 0 && index + valuesPerRow[table]! <= parameters.length).map(Number);
          sent.push({ kind: lock ? 'lock' : 'update', table, ids });
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await new QuotaRepository({ db: handle.db.withPlugin(recorder), dialect: handle.dialect }, rowsPerStatement).writeBatch(batch, 1_700_000_000);
    return sent;
  }

  /** The rows in the order they are locked: by the lock statements on PostgreSQL and MySQL, else by the updates. */
  const lockOrder = (sent: Sent[]) =>
    sent
      .filter((statement) => statement.kind === (database.dialect === 'sqlite' ? 'update' : 'lock'))
      .flatMap((statement) => statement.ids.map((id): [string, number] => [statement.table, id]));

  it('locks the rows table by table (tokens, users, channels), each by ascending id, whatever order the charges came in', async () => {
    const expected: Array<[string, number]> = [
      ...ids.tokens.map((id): [string, number] => ['tokens', id]),
      ...ids.users.map((id): [string, number] => ['users', id]),
      ...ids.channels.map((id): [string, number] => ['channels', id]),
    ];
    for (const order of [descending, shuffled, ascending]) expect(lockOrder(await statementsSent(batchInOrder(order)))).toEqual(expected);
  });

  it.runIf(database.dialect !== 'sqlite')('sends two statements per chunk of rows, the lock before the update of the same rows, not one per row', async () => {
    const chunked = (table: string, list: number[]): Sent[] =>
      [list.slice(0, 5), list.slice(5, 10), list.slice(10)]
        .filter((chunk) => chunk.length > 0)
        .flatMap((chunk): Sent[] => [
          { kind: 'lock', table, ids: chunk },
          { kind: 'update', table, ids: chunk },
        ]);
    expect(await statementsSent(batchInOrder(shuffled), 5)).toEqual([
      ...chunked('tokens', ids.tokens),
      ...chunked('users', ids.users),
      ...chunked('channels', ids.channels),
    ]);
    // The default chunk holds every row of a table here: six statements for three tables.
    expect((await statementsSent(batchInOrder(shuffled))).length).toBe(6);
  });

  it('adds sums past 2^31 exactly, and passes over a row deleted since its charge', async () => {
    const { db } = testApp.context.database;
    // The large sums go on the second row of their statement: MySQL types the derived table's columns from all its rows.
    const [token, user] = [ids.tokens[1]!, ids.users[1]!];
    const tokenBefore = await db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', token).executeTakeFirstOrThrow();
    const userBefore = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', user).executeTakeFirstOrThrow();
    const large = 3 * 2 ** 31 + 7;
    const batch = new PendingDeltas();
    batch.addToken(ids.tokens[0]!, -1, 1);
    batch.addToken(token, large, large + 1);
    batch.addToken(987_654_321, -5, 5);
    batch.addUser(ids.users[0]!, -1, 1, 1);
    batch.addUser(user, 2 * large, large, 2 ** 32);
    batch.addUser(987_654_321, -5, 5, 1);
    batch.addChannel(987_654_321, 5);
    // Once with the deleted rows in a statement with others, once in statements of their own.
    for (const rowsPerStatement of [undefined, 1]) await new QuotaRepository(testApp.context.database, rowsPerStatement).writeBatch(batch, 1_700_000_123);
    const tokenAfter = await db.selectFrom('tokens').select(['remain_quota', 'used_quota', 'accessed_time']).where('id', '=', token).executeTakeFirstOrThrow();
    const userAfter = await db.selectFrom('users').select(['quota', 'used_quota', 'request_count']).where('id', '=', user).executeTakeFirstOrThrow();
    expect([Number(tokenAfter.remain_quota), Number(tokenAfter.used_quota), Number(tokenAfter.accessed_time)]).toEqual([
      Number(tokenBefore.remain_quota) + 2 * large,
      Number(tokenBefore.used_quota) + 2 * (large + 1),
      1_700_000_123,
    ]);
    expect([Number(userAfter.quota), Number(userAfter.used_quota), Number(userAfter.request_count)]).toEqual([
      Number(userBefore.quota) + 4 * large,
      Number(userBefore.used_quota) + 2 * large,
      Number(userBefore.request_count) + 2 ** 33,
    ]);
    expect(await db.selectFrom('tokens').select('id').where('id', '=', 987_654_321).execute()).toEqual([]);
  });

  it.runIf(database.dialect !== 'sqlite')('two writers updating the same rows in opposite orders both commit, without a deadlock', async () => {
    const repository = new QuotaRepository(testApp.context.database);
    const { db } = testApp.context.database;
    const before = await db
      .selectFrom('tokens')
      .select(({ fn }) => fn.sum<number>('remain_quota').as('sum'))
      .where('id', 'in', ids.tokens)
      .executeTakeFirstOrThrow();
    const rounds = 6;
    for (let round = 0; round < rounds; round += 1) {
      const results = await Promise.allSettled([
        repository.writeBatch(batchInOrder(ascending, 3), 1_700_000_000),
        repository.writeBatch(batchInOrder(descending, 5), 1_700_000_000),
      ]);
      expect(results.filter((result) => result.status === 'rejected').map((result) => String((result as PromiseRejectedResult).reason))).toEqual([]);
    }
    const after = await db
      .selectFrom('tokens')
      .select(({ fn }) => fn.sum<number>('remain_quota').as('sum'))
      .where('id', 'in', ids.tokens)
      .executeTakeFirstOrThrow();
    expect(Number(before.sum) - Number(after.sum)).toBe(rounds * rowCount * 8);
  });

  /** Tokens of their own, inserted in descending id order: a table scan meets them highest id first. */
  const probeTokens = [900_001, 900_002, 900_003, 900_004, 900_005, 900_006, 900_007, 900_008];

  /** Which of the tokens some other transaction holds: a look that skips locked rows, rolled back. */
  async function heldTokens(list: number[]): Promise<number[]> {
    const { db } = testApp.context.database;
    let free: number[] = [];
    const rollBack = new Error('roll back');
    await db
      .transaction()
      .execute(async (transaction) => {
        const result = await sql<{ id: number }>`select id from tokens where id in (${sql.join(list)}) for update skip locked`.execute(transaction);
        free = result.rows.map((row) => Number(row.id));
        throw rollBack;
      })
      .catch((error: unknown) => {
        if (error !== rollBack) throw error;
      });
    return list.filter((id) => !free.includes(id));
  }

  it.runIf(database.dialect !== 'sqlite')('holds only the rows below a row another transaction holds, whatever order the table stores them in', async () => {
    const { db } = testApp.context.database;
    const rows = [...probeTokens].reverse().map((id) => sql`(${id}, ${ids.users[0]!}, ${`sk-probe-${id}`}, ${1_000_000})`);
    await sql`insert into tokens (id, user_id, ${sql.id('key')}, remain_quota) values ${sql.join(rows)}`.execute(db);
    const batch = new PendingDeltas();
    for (const id of probeTokens) batch.addToken(id, -1, 1);
    const blocked = probeTokens[4]!;
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding = () => {};
    const held = new Promise<void>((resolve) => (holding = resolve));
    const blocker = db.transaction().execute(async (transaction) => {
      await sql`select id from tokens where id = ${blocked} for update`.execute(transaction);
      holding();
      await released;
    });
    await held;
    const writing = new QuotaRepository(testApp.context.database).writeBatch(batch, 1_700_000_000);
    try {
      // The writer takes the rows below the blocked one and waits there; the blocker holds that one.
      // Taken from the highest id down, it would hold the rows above instead and never these.
      const expected = probeTokens.filter((id) => id <= blocked);
      await vi.waitFor(async () => expect(await heldTokens(probeTokens)).toEqual(expected), { timeout: 10_000, interval: 20 });
    } finally {
      release();
      await blocker;
      await writing;
    }
    const after = await db.selectFrom('tokens').select('remain_quota').where('id', 'in', probeTokens).execute();
    expect(after.map((row) => Number(row.remain_quota))).toEqual(probeTokens.map(() => 999_999));
  });
});
