import { copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { ChannelRepository } from '../../../packages/server/src/entry/api/channel/channel.repository.ts';
import type { LogFilters } from '../../../packages/server/src/entry/api/log/log-filters.ts';
import { logHourlyReaders, logHourlyRepositories } from '../../../packages/server/src/entry/api/log/log-hourly.repository.ts';
import { LogRepository } from '../../../packages/server/src/entry/api/log/log.repository.ts';
import { LogService, withUsernameResolved } from '../../../packages/server/src/entry/api/log/log.service.ts';
import { LogTotals } from '../../../packages/server/src/entry/api/log/log-totals.ts';
import { UserRepository } from '../../../packages/server/src/entry/api/user/user.repository.ts';
import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { cachedPostgresDataSet, cachedSqliteDataSet } from './dataset-cache.ts';
import { dataSetShape, type DataSetShape, groupName, modelName, tokenName, userName } from './dataset-shape.ts';

/** No log page the console asks for may take longer than this (issue 41). */
export const pageBudgetMs = 200;
const pageSize = 10;
/** A deep page: what paging far back in a long range asks of the engine. */
const deepPage = 200;
const runs = 3;
const day = 86_400;

export interface LogPageFigure {
  engine: 'sqlite' | 'postgres';
  scenario: string;
  page: number;
  total: number;
  medianMs: number;
  maxMs: number;
  /** Of which the total alone (LogTotals.count), median: where a slow page spends its time. */
  totalMedianMs: number;
}

interface Scenario {
  name: string;
  filters: LogFilters;
}

/**
 * The filters the console sends (administrator and self pages), each alone and with the time ranges
 * people pick, on values of every frequency: the most used model, channel and group, a tail one, a
 * heavy user and one token. The data set's newest log is "now".
 */
async function scenarios(service: { now: number; busiestChannel: number; quietChannel: number }, shape: DataSetShape): Promise<Scenario[]> {
  const today = { start: service.now - day, end: service.now };
  const week = { start: service.now - 7 * day, end: service.now };
  const tailModel = modelName(Math.min(60, shape.models - 1));
  const tailGroup = groupName(Math.min(shape.groups - 1, 17));
  const filtersAlone: Scenario[] = [
    { name: 'none', filters: {} },
    { name: 'type consume', filters: { type: 2 } },
    { name: 'type error', filters: { type: 5 } },
    { name: 'user id (self)', filters: { userId: 1 } },
    { name: 'username', filters: { username: userName(0) } },
    { name: 'token name', filters: { tokenName: tokenName(0) } },
    { name: 'model (top)', filters: { modelName: modelName(0) } },
    { name: `model (tail, ${tailModel})`, filters: { modelName: tailModel } },
    { name: 'channel (busiest)', filters: { channelId: service.busiestChannel } },
    { name: 'channel (quiet)', filters: { channelId: service.quietChannel } },
    { name: 'group default', filters: { group: 'default' } },
    { name: `group (${tailGroup})`, filters: { group: tailGroup } },
    { name: 'model + type', filters: { modelName: modelName(1), type: 2 } },
    { name: 'channel + group', filters: { channelId: service.busiestChannel, group: 'default' } },
    { name: 'username + model', filters: { username: userName(0), modelName: modelName(0) } },
    { name: 'user id + model (self)', filters: { userId: 1, modelName: modelName(0) } },
    { name: 'user id + token name (self)', filters: { userId: 1, tokenName: tokenName(0) } },
  ];
  return filtersAlone.flatMap((scenario) => [
    scenario,
    { name: `${scenario.name}, today`, filters: { ...scenario.filters, ...today } },
    { name: `${scenario.name}, 7 days`, filters: { ...scenario.filters, ...week } },
  ]);
}

async function time(work: () => Promise<unknown>): Promise<{ medianMs: number; maxMs: number }> {
  await work();
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await work();
    samples.push(performance.now() - started);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: samples[Math.floor(samples.length / 2)] ?? 0, maxMs: samples[samples.length - 1] ?? 0 };
}

/** Times the first and a deep page (rows and total, as `GET /api/log/` answers them) of every scenario on one database. */
export async function measureEngine(
  engine: 'sqlite' | 'postgres',
  sqlDsn: string,
  sqlitePath: string,
  shape: DataSetShape,
  progress: (message: string) => void,
) {
  const handle = await openDatabase(sqlDsn, sqlitePath);
  const figures: LogPageFigure[] = [];
  try {
    const repository = new LogRepository(handle.db);
    if (engine === 'postgres') {
      // A live database is vacuumed by autovacuum; a fresh clone of the template has no visibility map
      // yet, so every index-only count (a heavy user's total) would visit the table's pages.
      const started = performance.now();
      await sql`vacuum (analyze) logs`.execute(handle.db);
      progress(`  postgres: vacuum (analyze) logs in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      // Nor had the roll-up tables statistics or a visibility map in the clone (autovacuum analyzes and
      // vacuums them on a live database): without statistics the busiest channel's total with a group
      // was planned over the wrong index and filtered 1.3 million roll-up rows (720 ms); without the
      // visibility map their covering indexes (migration 0035) are read with a heap page per row.
      await sql`vacuum (analyze) switchboard_log_hourly, switchboard_log_hourly_type, switchboard_log_hourly_group, switchboard_log_hourly_channel_group, switchboard_log_daily_user_model, switchboard_log_daily_user_token`.execute(
        handle.db,
      );
    }
    const newest = await sql<{ at: number | string | null }>`select max(created_at) as at from logs`.execute(handle.db);
    const now = Number(newest.rows[0]?.at ?? 0);
    const byUse = await sql<{
      channel_id: number | string;
    }>`select channel_id from switchboard_log_hourly_channel_group group by channel_id order by sum(count) desc`.execute(handle.db);
    const busiestChannel = Number(byUse.rows[0]?.channel_id ?? 1);
    const quietChannel = Number(byUse.rows[Math.floor(byUse.rows.length * 0.9)]?.channel_id ?? 1);
    const hourly = logHourlyReaders(handle.db, handle.dialect);
    const users = new UserRepository(handle.db, handle.dialect);
    const service = new LogService({
      repository,
      hourly: logHourlyRepositories(handle.db, handle.dialect),
      hourlyReaders: hourly,
      channels: new ChannelRepository(handle.db, handle.dialect),
      users,
      clock: { now: () => now * 1000, unixSeconds: () => now },
    });
    const totals = new LogTotals(repository, hourly);
    for (const scenario of await scenarios({ now, busiestChannel, quietChannel }, shape)) {
      for (const page of [1, deepPage]) {
        let total = 0;
        const timing = await time(async () => {
          total = (await service.adminPage(scenario.filters, page, pageSize)).total;
        });
        const resolved = await withUsernameResolved(scenario.filters, users);
        const totalOnly = resolved ? (await time(() => totals.count(resolved))).medianMs : 0;
        figures.push({ engine, scenario: scenario.name, page, total, ...timing, totalMedianMs: totalOnly });
        const verdict = timing.medianMs > pageBudgetMs ? '  OVER BUDGET' : '';
        progress(
          `  ${engine} | ${scenario.name} | page ${page} | ${timing.medianMs.toFixed(1)} / ${timing.maxMs.toFixed(1)} ms (total alone ${totalOnly.toFixed(1)}) | ${total} rows${verdict}`,
        );
      }
    }
  } finally {
    await handle.close();
  }
  return figures;
}

/**
 * `npm run bench -- --log-pages [--realistic-scale=0.1]`: on the realistic data set's log table (10
 * million rows at scale 1), the first and a deep page of every filter the console sends, alone and
 * with a time range, on SQLite and PostgreSQL. A page whose median is over 200 ms fails the run.
 */
export async function runLogPages(options: { realisticScale: number; postgresUrl: string }, progress: (message: string) => void): Promise<LogPageFigure[]> {
  const shape = dataSetShape(options.realisticScale);
  const figures: LogPageFigure[] = [];
  const sqlite = await cachedSqliteDataSet(options.realisticScale, shape, progress);
  const copy = join(tmpdir(), `log-pages-${process.pid}.sqlite`);
  copyFileSync(sqlite.sqliteFile ?? '', copy);
  try {
    figures.push(...(await measureEngine('sqlite', '', copy, shape, progress)));
  } finally {
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${copy}${suffix}`, { force: true });
  }
  const postgres = await cachedPostgresDataSet(options.postgresUrl, options.realisticScale, shape, progress);
  const name = `log_pages_${process.pid}`;
  const admin = new pg.Client({ connectionString: options.postgresUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}" template "${postgres.postgresTemplate ?? ''}"`);
    const url = new URL(options.postgresUrl);
    url.pathname = `/${name}`;
    figures.push(...(await measureEngine('postgres', url.toString(), '', shape, progress)));
  } finally {
    await admin.query(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
  return figures;
}
