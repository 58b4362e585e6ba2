/**
 * Log page benchmark: fills the `logs` table with N rows (default 1,000,000; `--rows 10000000` or
 * `--ten-million` for the issue's figure) on SQLite and PostgreSQL, then times the queries the console
 * sends: the log page (items + total) and its stats, unfiltered and with the filters people use.
 *
 *   node bench/logs/log-queries.ts [--rows N | --ten-million] [--engine sqlite|postgres|both] [--pg-url URL] [--explain]
 *
 * PostgreSQL uses TEST_PG_URL (or --pg-url) as an administrator connection and creates a scratch
 * database. Rows span 30 days, 1,000 users, 20 models, 50 channels; ids grow with time as in real use.
 * `--explain` also prints each scenario's page query plan.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CompiledQuery, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { LogRepository } from '../../packages/server/src/entry/api/log/log.repository.ts';
import type { LogFilters } from '../../packages/server/src/entry/api/log/log-filters.ts';
import { migrateLogDatabase } from '../../packages/server/src/core/db/migrate.ts';
import type { Database } from '../../packages/server/src/core/db/schema.ts';
import { ensureTable } from '../../packages/server/src/core/db/ensure-tables.ts';
import { logs } from '../../packages/server/src/core/db/table-definitions.ts';
import { logTimeIndexes } from '../../packages/server/src/core/db/migrations/0012-log-time-indexes.ts';
import { rollUpGuidedLogIndexes } from '../../packages/server/src/core/db/migrations/0032-drop-roll-up-guided-log-indexes.ts';
import { LogPageLocator } from '../../packages/server/src/entry/api/log/log-page-locator.ts';
import {
  type HourlyKey,
  type LogHourlyRepository,
  logHourlyReaders,
  logHourlyRepositories,
} from '../../packages/server/src/entry/api/log/log-hourly.repository.ts';
import { rollUpLogs } from '../../packages/server/src/entry/api/log/log-hourly-rollup.ts';
import { LogTotals } from '../../packages/server/src/entry/api/log/log-totals.ts';
import { withUsernameResolved } from '../../packages/server/src/entry/api/log/log.service.ts';
import { openDatabase } from '../../packages/server/src/core/platform/database.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    'ten-million': { type: 'boolean', default: false },
    engine: { type: 'string', default: 'both' },
    'pg-url': { type: 'string', default: process.env.TEST_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres' },
    repeat: { type: 'string', default: '7' },
    explain: { type: 'boolean', default: false },
  },
});
const rowCount = values['ten-million'] ? 10_000_000 : Number(values.rows);
const repeat = Number(values.repeat);
const daySeconds = 86_400;
const spanSeconds = 30 * daySeconds;
const now = Math.floor(Date.now() / 1000);
const firstTimestamp = now - spanSeconds;

/** One INSERT … SELECT over a generated series, so filling happens inside the engine. */
function fillStatement(series: string, from: number, to: number) {
  const step = spanSeconds / rowCount;
  return sql`
    insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, ${sql.ref('group')}, ip, request_id, other)
    select 1 + (n * 7919) % 1000, ${sql.lit(firstTimestamp)} + cast(n * ${sql.lit(step)} as bigint),
      case when n % 20 = 0 then 1 when n % 50 = 1 then 3 else 2 end, '',
      'user' || (1 + (n * 7919) % 1000), 'token-' || ((n * 104729) % 5000), 'model-' || (n % 20),
      (n * 2654435761) % 20000, (n * 40503) % 4000, (n * 9973) % 1000, 1 + n % 30, ${sql.raw(series === 'pg' ? 'n % 2 = 0' : 'n % 2')}, 1 + n % 50, (n * 104729) % 5000,
      case when n % 3 = 0 then 'vip' else 'default' end, '', '', '{"model_ratio":1}'
    from ${sql.raw(series === 'pg' ? `generate_series(cast(${from} as bigint), cast(${to} as bigint)) as s(n)` : `(with recursive s(n) as (select ${from} union all select n + 1 from s where n < ${to}) select n from s)`)}`;
}

/** Indexes are dropped while filling and rebuilt after (far faster than maintaining them row by row). */
async function fill(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  // The indexes the migrations leave (0032 dropped those the roll-up-guided pages replaced).
  const indexes = [...logs.indexes, ...logTimeIndexes.filter((index) => !rollUpGuidedLogIndexes.includes(index.name))];
  for (const index of indexes) await db.schema.dropIndex(index.name).ifExists().execute();
  const chunk = 500_000;
  for (let from = 1; from <= rowCount; from += chunk) {
    const to = Math.min(rowCount, from + chunk - 1);
    await fillStatement(dialect === 'postgres' ? 'pg' : 'sqlite', from, to).execute(db);
    process.stdout.write(`\r  filled ${to.toLocaleString('en')} rows`);
  }
  process.stdout.write('\n');
  await ensureTable(db, { ...logs, indexes }, dialect);
  await sql.raw(dialect === 'postgres' ? 'vacuum analyze logs' : 'analyze').execute(db);
}

function median(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function time(work: () => Promise<unknown>): Promise<{ median: number; max: number }> {
  await work();
  const samples: number[] = [];
  for (let run = 0; run < repeat; run += 1) {
    const start = performance.now();
    await work();
    samples.push(performance.now() - start);
  }
  return { median: median(samples), max: Math.max(...samples) };
}

/** What the console asks for: the default page is today's logs, newest first, 10 per page. */
function scenarios(): Array<{ name: string; filters: LogFilters; page?: number }> {
  const today = { start: now - daySeconds, end: now + 3600 };
  return [
    { name: 'all users, today (console default)', filters: today },
    { name: 'all users, no time range', filters: {} },
    { name: 'all users, last 7 days', filters: { start: now - 7 * daySeconds } },
    { name: 'username, today', filters: { ...today, username: 'user42' } },
    { name: 'username, no time range', filters: { username: 'user42' } },
    { name: 'model, today', filters: { ...today, modelName: 'model-7' } },
    { name: 'token name + type, today', filters: { ...today, tokenName: 'token-99', type: 2 } },
    { name: 'channel, today', filters: { ...today, channelId: 7 } },
    { name: 'self (user id), today', filters: { ...today, userId: 42 } },
    { name: 'self (user id), no time range', filters: { userId: 42 } },
    { name: 'all users, today, page 500', filters: today, page: 500 },
    { name: 'model, no time range', filters: { modelName: 'model-7' } },
    { name: 'channel, no time range', filters: { channelId: 7 } },
    { name: 'group, today', filters: { ...today, group: 'vip' } },
    { name: 'group, no time range', filters: { group: 'vip' } },
    { name: 'type (consumption), no time range', filters: { type: 2 } },
  ];
}

/**
 * What the running server does after filling: the hourly roll-up jobs catch up (each from log id 0 on
 * its own cursor), then a few minutes of new logs arrive that they have not rolled up yet (the answers
 * read those from the logs table).
 */
async function rollUpAndAddTail(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const rollUp = async <Key extends HourlyKey>(hourly: LogHourlyRepository<Key>) => {
    const started = performance.now();
    await rollUpLogs(hourly, await hourly.maxLogId(), now);
    const rows = await db
      .selectFrom(hourly.table.name)
      .select(({ fn }) => fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    console.log(
      `  ${hourly.table.name} roll-up of ${rowCount.toLocaleString('en')} logs: ${((performance.now() - started) / 1000).toFixed(0)} s, ${Number(rows.n).toLocaleString('en')} hourly rows`,
    );
  };
  const [byModel, byChannelGroup] = logHourlyRepositories(db, dialect);
  await rollUp(byModel);
  await rollUp(byChannelGroup);
  const tail = 5000;
  const before = rowCount;
  await sql`insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, ${sql.ref('group')}, ip, request_id, other)
    select user_id, ${sql.lit(now - 120)}, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, ${sql.ref('group')}, ip, request_id, other
    from logs where id > ${sql.lit(before - tail)}`.execute(db);
  console.log(`  plus ${tail.toLocaleString('en')} newer logs not rolled up yet (${dialect})`);
}

async function measure(db: Kysely<Database>, dialect: 'sqlite' | 'postgres'): Promise<void> {
  const repository = new LogRepository(db);
  const hourly = logHourlyReaders(db, dialect);
  const totals = new LogTotals(repository, hourly);
  const pages = new LogPageLocator(repository, hourly);
  // As the service pages: a username is resolved to its users' ids first. This database has no users
  // table; the fill names user N `userN`, so the lookup (one indexed read of the small users table in
  // the product) is answered from that rule.
  const users = { idsOfUsername: async (name: string) => (/^user\d+$/.test(name) ? [Number(name.slice(4))] : []) };
  console.log('  | scenario | page + total (ms, median / max) | stat (ms, median / max) | total rows |');
  console.log('  |---|--:|--:|--:|');
  for (const scenario of scenarios()) {
    const pageSize = 10;
    const offset = ((scenario.page ?? 1) - 1) * pageSize;
    const resolved = async () => (await withUsernameResolved(scenario.filters, users)) ?? scenario.filters;
    const total = await totals.count(await resolved());
    const page = await time(async () => {
      const filters = await resolved();
      return Promise.all([pages.page(filters, offset, pageSize), totals.count(filters)]);
    });
    const stat = await time(async () => totals.stat(await resolved(), now));
    const format = (figure: { median: number; max: number }) => `${figure.median.toFixed(1)} / ${figure.max.toFixed(1)}`;
    console.log(`  | ${scenario.name} | ${format(page)} | ${format(stat)} | ${total.toLocaleString('en')} |`);
  }
  if (!values.explain) return;
  for (const scenario of scenarios()) {
    const filters = (await withUsernameResolved(scenario.filters, users)) ?? scenario.filters;
    const page = repository.pageQuery(filters, ((scenario.page ?? 1) - 1) * 10, 10).compile();
    // SQLite's plain EXPLAIN lists bytecode; EXPLAIN QUERY PLAN names the index.
    const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
    const plan = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + page.sql, [...page.parameters]));
    const lines = plan.rows.map((row) => String(dialect === 'sqlite' ? row.detail : Object.values(row)[0]));
    console.log(`  plan of the page, ${scenario.name}:\n    ${lines.join('\n    ')}`);
  }
}

async function runSqlite(): Promise<void> {
  const path = join(tmpdir(), `sb_log_bench_${randomBytes(4).toString('hex')}.db`);
  const handle = await openDatabase('', path);
  try {
    console.log(`SQLite (${path}), ${rowCount.toLocaleString('en')} rows`);
    await migrateLogDatabase(handle.db, handle.dialect);
    const started = performance.now();
    await fill(handle.db, 'sqlite');
    console.log(`  fill + analyze: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await rollUpAndAddTail(handle.db, 'sqlite');
    await measure(handle.db, 'sqlite');
  } finally {
    await handle.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
  }
}

async function runPostgres(adminUrl: string): Promise<void> {
  const name = `sb_log_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase(url.toString(), '');
  try {
    console.log(`PostgreSQL (${name}), ${rowCount.toLocaleString('en')} rows`);
    await migrateLogDatabase(handle.db, handle.dialect);
    const started = performance.now();
    await fill(handle.db, 'postgres');
    console.log(`  fill + vacuum analyze: ${((performance.now() - started) / 1000).toFixed(0)} s`);
    await rollUpAndAddTail(handle.db, 'postgres');
    await measure(handle.db, 'postgres');
  } finally {
    await handle.close();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

if (values.engine === 'sqlite' || values.engine === 'both') await runSqlite();
if (values.engine === 'postgres' || values.engine === 'both') await runPostgres(values['pg-url']);
