import { type CompiledQuery, type KyselyPlugin, UpdateQueryNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  /** Every update the repository sends, as (table, id) in the order sent. */
  async function updatesSent(batch: PendingDeltas): Promise<Array<[string, number]>> {
    const sent: Array<[string, number]> = [];
    const handle = testApp.context.database;
    if (handle.batchWorker) {
      const real = handle.batchWorker;
      const recording: BatchWriter = {
        run: (statements: readonly BatchStatement[]) => {
          for (const statement of statements) {
            const table = /^update "(\w+)"/.exec(statement.sql)?.[1] ?? '';
            for (const row of statement.rows) sent.push([table, Number(row[row.length - 1])]);
          }
          return real.run(statements);
        },
        close: () => Promise.resolve(),
      };
      await new QuotaRepository({ db: handle.db, batchWorker: recording }).writeBatch(batch, 1_700_000_000);
      return sent;
    }
    const executor = handle.db.getExecutor();
    const recorder: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        if (UpdateQueryNode.is(node)) {
          const compiled: CompiledQuery = executor.compileQuery(node, queryId);
          const table = /^update [`"](\w+)[`"]/.exec(compiled.sql)?.[1] ?? '';
          sent.push([table, Number(compiled.parameters[compiled.parameters.length - 1])]);
        }
        return node;
      },
      transformResult: async ({ result }) => result,
    };
    await new QuotaRepository({ db: handle.db.withPlugin(recorder) }).writeBatch(batch, 1_700_000_000);
    return sent;
  }

  it('sends the updates table by table (tokens, users, channels), each by ascending id, whatever order the charges came in', async () => {
    const expected: Array<[string, number]> = [
      ...ids.tokens.map((id): [string, number] => ['tokens', id]),
      ...ids.users.map((id): [string, number] => ['users', id]),
      ...ids.channels.map((id): [string, number] => ['channels', id]),
    ];
    for (const order of [descending, shuffled, ascending]) expect(await updatesSent(batchInOrder(order))).toEqual(expected);
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
});
