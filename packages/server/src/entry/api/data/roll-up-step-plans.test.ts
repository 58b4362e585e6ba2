import { CompiledQuery, type KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useMigratedDatabase } from '../../../testing/migrated-test-database.ts';
import { testDatabases } from '../../../testing/test-databases.ts';
import { logHourlyRepositories } from '../log/log-hourly.repository.ts';
import { ChannelStatsRepository } from './channel-stats.repository.ts';
import { QuotaDataRepository } from './quota-data.repository.ts';

/**
 * Every run of the roll-up jobs reads the new logs in steps of a few thousand ids, on SQLite on the
 * event loop. A step must read its range of ids and nothing else: walked through another index, it
 * reads every log of a type, a cost that grows with the table (at 2.1 million logs under load, one
 * minute's steps held the event loop for minutes and the gateway answered 30 requests a second).
 * SQLite keeps no statistics, so its choice does not depend on the rows: the plans are checked on an
 * empty table.
 */
const sqlite = testDatabases().filter((database) => database.dialect === 'sqlite');

describe.each(sqlite)('roll-up steps on $dialect', (database) => {
  const opened = useMigratedDatabase(database);

  /** The plan of every statement `step` runs against the logs. */
  async function plansOfLogReads(step: (plugin: KyselyPlugin) => Promise<unknown>): Promise<string[]> {
    const handle = opened();
    const reads: CompiledQuery[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => {
        const compiled = handle.db.getExecutor().compileQuery(node, queryId);
        if (/from "logs"/.test(compiled.sql)) reads.push(compiled);
        return node;
      },
      transformResult: ({ result }) => Promise.resolve(result),
    };
    await step(recorder);
    expect(reads.length).toBeGreaterThan(0);
    const plans: string[] = [];
    for (const read of reads) {
      const rows = await handle.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${read.sql}`, [...read.parameters]));
      plans.push(rows.rows.map((row) => row.detail).join(' | '));
    }
    return plans;
  }

  const throughIdsOnly = /^SEARCH logs USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/;

  it('the channel statistics read a step through its ids alone', async () => {
    const plans = await plansOfLogReads((recorder) => new ChannelStatsRepository(opened().db.withPlugin(recorder)).rowsOfLogs(1_000, 3_000));
    expect(plans).toHaveLength(2);
    for (const plan of plans) expect(plan).toMatch(throughIdsOnly);
  });

  it("the dashboard's channel view reads the logs behind the roll-up's watermark through their ids, and the range when there is none", async () => {
    const range = { from: 1_790_000_000, to: 1_790_086_400 };
    const behind = await plansOfLogReads((recorder) => new ChannelStatsRepository(opened().db.withPlugin(recorder)).newest(5_000, range));
    expect(behind).toHaveLength(2);
    for (const plan of behind) expect(plan).toMatch(/^SEARCH logs USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    const none = await plansOfLogReads((recorder) => new ChannelStatsRepository(opened().db.withPlugin(recorder)).newest(0, range));
    for (const plan of none) expect(plan).toMatch(/created_at>\? AND created_at<\?/);
  });

  it("the dashboard's hourly usage reads a step through its ids alone", async () => {
    const plans = await plansOfLogReads((recorder) => {
      const db = opened().db.withPlugin(recorder);
      return new QuotaDataRepository(db, db).rowsOfLogs(1_000, 3_000);
    });
    expect(plans).toHaveLength(1);
    expect(plans[0]).toMatch(throughIdsOnly);
  });

  it("the dashboard's hourly usage reads the logs behind a recent watermark through their ids, and the range otherwise", async () => {
    const range = { from: 1_790_000_000, to: 1_790_086_400 };
    const read = (through: 'ids' | 'time', userId?: number) =>
      plansOfLogReads((recorder) => {
        const db = opened().db.withPlugin(recorder);
        return new QuotaDataRepository(db, db).newestBuckets(5_000, { ...range, userId }, through);
      });
    for (const plan of [...(await read('ids')), ...(await read('ids', 7))]) expect(plan).toMatch(/^SEARCH logs USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    for (const plan of await read('time')) expect(plan).toMatch(/created_at>\? AND created_at<\?/);
  });

  it('the hourly log roll-ups read a step through its ids alone', async () => {
    const plans = await plansOfLogReads((recorder) =>
      Promise.all(logHourlyRepositories(opened().db.withPlugin(recorder), 'sqlite').map((repository) => repository.totalsOfLogs(1_000, 3_000))),
    );
    expect(plans).toHaveLength(3);
    for (const plan of plans) expect(plan).toMatch(throughIdsOnly);
  });

  it('the hourly log roll-ups add a step to every table they keep through its ids alone (what a job runs)', async () => {
    const plans = await plansOfLogReads((recorder) =>
      Promise.all(logHourlyRepositories(opened().db.withPlugin(recorder), 'sqlite').map((repository) => repository.addLogs(1_000, 3_000))),
    );
    // Model and type, channel and group and group, user and token and user and model.
    expect(plans).toHaveLength(6);
    for (const plan of plans) expect(plan).toMatch(throughIdsOnly);
  });
});
