/**
 * The roll-ups' catch-up (what a gateway does first on a database with many logs not yet counted,
 * e.g. moved over from new-api): wall time of rolling up N varied logs into the hourly tables and the
 * daily per-user ones, per 20,000 logs, and the CPU each job spends per 1,000 logs (this process,
 * and on PostgreSQL the server's backends too; on SQLite the process does it all). The rows are
 * spread as the realistic data set's are (about 14,000 logs an hour, 100 models, 2,000 channels, 20
 * groups, 5,000 users and token names, several log types), so nearly every log of an hour opens its
 * own (channel, group) sum row, and of a day its own (user, token name) and (user, model) ones.
 *
 *   node bench/src/micro/log-roll-up.ts [--logs=20000] [--dsn=postgres://…/db]
 *
 * A PostgreSQL DSN must name a database of its own: its public schema is emptied first.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { rollUpLogs } from '../../../packages/server/src/entry/api/log/log-hourly-rollup.ts';
import { type HourlyKey, type LogHourlyRepository, logHourlyRepositories } from '../../../packages/server/src/entry/api/log/log-hourly.repository.ts';
import { migrateLogDatabase } from '../../../packages/server/src/core/db/migrate.ts';
import type { LogEntry } from '../../../packages/server/src/domain/logs/log-row.ts';
import { LogWriter } from '../../../packages/server/src/domain/logs/log-writer.repository.ts';
import { systemClock } from '../../../packages/server/src/core/platform/clock.ts';
import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const totalLogs = Number(options.get('--logs') ?? 20_000);
const dsn = options.get('--dsn') ?? '';
if (dsn && !dsn.startsWith('postgres')) throw new Error('--dsn takes a PostgreSQL DSN (without it: SQLite)');

/** A cheap deterministic spread (Knuth's multiplicative hash), so runs compare. */
const spread = (index: number, salt: number, count: number) => (((index + salt) * 2_654_435_761) >>> 0) % count;

function logRow(index: number): LogEntry {
  return {
    user_id: 1 + spread(index, 1, 5_000),
    type: spread(index, 2, 20) === 0 ? 5 : 2,
    created_at: 1_795_700_000 + Math.floor(index / 4),
    username: `user${spread(index, 1, 5_000)}`,
    token_name: `token${spread(index, 3, 5_000)}`,
    model_name: `model-${spread(index, 4, 100)}`,
    quota: 47 + spread(index, 5, 1000),
    prompt_tokens: 10,
    completion_tokens: 9,
    is_stream: index % 2,
    channel_id: 1 + spread(index, 6, 2_000),
    token_id: 1 + spread(index, 3, 5_000),
    group: `group-${spread(index, 7, 20)}`,
    request_id: `20261126175500a1b2c3d4${index.toString(16).padStart(8, '0')}`,
    other: '{}',
  };
}

/** CPU milliseconds of this database's PostgreSQL backends (the server runs on this machine), 0 on SQLite. */
async function serverCpuMs(): Promise<number> {
  if (!dsn) return 0;
  // The connections' backends only: autovacuum's workers come and go on their own schedule.
  const backends = await sql<{
    pid: number;
  }>`select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend'`.execute(database.db);
  const ticksPerMs = 100 / 1000; // USER_HZ
  let ticks = 0;
  for (const { pid } of backends.rows) {
    // Fields 14 and 15 of /proc/<pid>/stat (after the parenthesised name): user and system time.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / ticksPerMs;
}

async function timeRollUp<Key extends HourlyKey>(repository: LogHourlyRepository<Key>, upTo: number): Promise<void> {
  const serverBefore = await serverCpuMs();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await rollUpLogs(repository, upTo, systemClock.unixSeconds());
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const clientMs = (cpu.user + cpu.system) / 1000;
  const serverMs = (await serverCpuMs()) - serverBefore;
  const perThousand = (ms: number) => ((ms * 1000) / totalLogs).toFixed(1);
  const tables = [repository.table, ...(repository.table.keptWith ?? [])];
  const rows = await Promise.all(
    tables.map(async (table) => {
      const row = await database.db
        .selectFrom(table.name)
        .select(({ fn }) => fn.countAll<number>().as('rows'))
        .executeTakeFirst();
      return `${Number(row?.rows ?? 0)} in ${table.name}`;
    }),
  );
  console.log(
    `  job ${repository.table.job}: ${seconds.toFixed(2)} s (${((seconds * 20_000) / totalLogs).toFixed(2)} per 20,000 logs); CPU per 1,000 logs ${perThousand(clientMs + serverMs)} ms` +
      (dsn ? ` (client ${perThousand(clientMs)}, server ${perThousand(serverMs)})` : '') +
      `; sum rows: ${rows.join(', ')}`,
  );
}

const folder = mkdtempSync(join(tmpdir(), 'log-roll-up-'));
const database = await openDatabase(dsn, join(folder, 'logs.db'), 'LOG_SQL_DSN');
try {
  if (dsn) await sql`drop schema public cascade; create schema public`.execute(database.db);
  await migrateLogDatabase(database.db, database.dialect);
  const writer = new LogWriter(database, systemClock);
  for (let start = 0; start < totalLogs; start += 1_000)
    await writer.recordMany(Array.from({ length: Math.min(1_000, totalLogs - start) }, (_unused, index) => logRow(start + index)));
  const upTo = await logHourlyRepositories(database.db, database.dialect)[0].maxLogId();
  console.log(`${totalLogs.toLocaleString('en')} varied logs on ${dsn ? 'PostgreSQL' : 'SQLite'}: roll-up catch-up`);
  const [byModel, byChannelGroup, byUserToken] = logHourlyRepositories(database.db, database.dialect);
  await timeRollUp(byModel, upTo);
  await timeRollUp(byChannelGroup, upTo);
  await timeRollUp(byUserToken, upTo);
} finally {
  await database.close();
  rmSync(folder, { recursive: true, force: true });
}
