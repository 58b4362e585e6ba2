/**
 * CSV export memory benchmark: fills a SQLite log table with N rows (default 10,000,000) by one
 * INSERT … SELECT per chunk, starts Switchboard (`packages/server/src/main.ts`, as `npm start` runs it)
 * on that database, logs in as root and downloads `GET /api/export/logs` (no filters: every row),
 * sampling the server's RSS every 100 ms from /proc. Prints the row count read back, the time, and the
 * RSS before, at each tenth of the download and at its peak.
 *
 *   node bench/export/csv-export-memory.ts [--rows N] [--keep]
 *
 * The database lives in a temporary folder, removed afterwards unless --keep.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { request } from 'undici';
import { rollUpLogs } from '../../packages/server/src/entry/api/log/log-hourly-rollup.ts';
import { logHourlyRepositories } from '../../packages/server/src/entry/api/log/log-hourly.repository.ts';
import { ensureTable } from '../../packages/server/src/core/db/ensure-tables.ts';
import { migrateLogDatabase, migrateMainDatabase } from '../../packages/server/src/core/db/migrate.ts';
import { logTimeIndexes } from '../../packages/server/src/core/db/migrations/0012-log-time-indexes.ts';
import { logs } from '../../packages/server/src/core/db/table-definitions.ts';
import { serverNodeFlags } from '../../packages/server/src/node-flags.ts';
import { openDatabase } from '../../packages/server/src/core/platform/database.ts';
import { rssBytes } from '../src/platform/proc-stats.ts';
import { freePort, startProcess, stopAll, waitForPort } from '../src/platform/processes.ts';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '10000000' }, keep: { type: 'boolean', default: false } } });
const rowCount = Number(values.rows);
const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const folder = mkdtempSync(join(tmpdir(), 'sb-export-bench-'));
const sqlitePath = join(folder, 'switchboard.db');
const rootPassword = 'bench-root-pass';
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Rows over 30 days; a third of the details need quoting, some start like a formula. */
async function fill(): Promise<void> {
  const handle = await openDatabase('', sqlitePath);
  try {
    await migrateMainDatabase(handle.db, handle.dialect);
    await migrateLogDatabase(handle.db, handle.dialect);
    const indexes = [...logs.indexes, ...logTimeIndexes];
    for (const index of indexes) await handle.db.schema.dropIndex(index.name).ifExists().execute();
    const now = Math.floor(Date.now() / 1000);
    const first = now - 30 * 86_400;
    const step = (30 * 86_400) / rowCount;
    const started = Date.now();
    for (let from = 1; from <= rowCount; from += 500_000) {
      const to = Math.min(rowCount, from + 499_999);
      await sql`
        insert into logs (user_id, created_at, type, content, username, token_name, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, ${sql.ref('group')}, ip, request_id, other)
        select 1 + (n * 7919) % 1000, ${sql.lit(first)} + cast(n * ${sql.lit(step)} as bigint), case when n % 20 = 0 then 5 else 2 end,
          case n % 3 when 0 then 'model ratio 1, completion ratio 2' when 1 then '=SUM(A1:A9) "quoted"' else '' end,
          'user' || (1 + (n * 7919) % 1000), 'token-' || ((n * 104729) % 5000), 'model-' || (n % 20),
          (n * 2654435761) % 20000, (n * 40503) % 4000, (n * 9973) % 1000, 1 + n % 30, n % 2, 1 + n % 50, (n * 104729) % 5000,
          case when n % 3 = 0 then 'vip' else 'default' end, '127.0.0.1', 'req-' || n, '{"model_ratio":1}'
        from (with recursive s(n) as (select ${sql.lit(from)} union all select n + 1 from s where n < ${sql.lit(to)}) select n from s)`.execute(handle.db);
      process.stdout.write(`\r  filled ${to.toLocaleString('en')} rows`);
    }
    process.stdout.write(`\n  in ${((Date.now() - started) / 1000).toFixed(0)} s; building indexes\n`);
    await ensureTable(handle.db, { ...logs, indexes }, 'sqlite');
    await sql`analyze`.execute(handle.db);
    // A running server has its roll-ups caught up: their first catch-up is not what is measured.
    const rollUpStarted = Date.now();
    const hourly = logHourlyRepositories(handle.db, handle.dialect);
    const maxId = await hourly[0].maxLogId();
    for (const table of hourly) await rollUpLogs(table, maxId, now);
    console.log(`  hourly roll-ups caught up in ${((Date.now() - rollUpStarted) / 1000).toFixed(0)} s`);
    // The dashboard's aggregation (quota_data) is off here: its catch-up over millions of fresh logs
    // would run beside the export and is not what is measured.
    await handle.db.insertInto('options').values({ key: 'DataExportEnabled', value: 'false' }).execute();
  } finally {
    await handle.close();
  }
}

async function login(origin: string): Promise<Record<string, string>> {
  const answer = await request(`${origin}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'root', password: rootPassword }),
  });
  const body = (await answer.body.json()) as { success: boolean; data?: { id: number } };
  const cookie = [answer.headers['set-cookie'] ?? []].flat()[0]?.split(';')[0];
  if (!body.success || !body.data || !cookie) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return { cookie, 'new-api-user': String(body.data.id) };
}

async function main(): Promise<void> {
  console.log(`Filling ${rowCount.toLocaleString('en')} log rows (SQLite, ${sqlitePath})`);
  await fill();
  const port = await freePort();
  const server = startProcess({
    name: 'switchboard',
    command: process.execPath,
    args: [...serverNodeFlags, join(repoRoot, 'packages/server/src/main.ts')],
    cwd: repoRoot,
    logFile: join(folder, 'server.log'),
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: sqlitePath,
      SESSION_SECRET: `bench-session-secret-${Date.now()}`,
      INITIAL_ROOT_PASSWORD: rootPassword,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      QUOTA_JOURNAL_DIR: 'off',
    },
  });
  try {
    await waitForPort(port, server);
    const origin = `http://127.0.0.1:${port}`;
    const headers = await login(origin);
    const before = rssBytes(server.pid);
    const samples: Array<{ rows: number; bytes: number }> = [];
    let rows = -1; // the header line
    let peak = before;
    let bytes = 0;
    let tail = '';
    const sampler = setInterval(() => {
      const now = rssBytes(server.pid);
      peak = Math.max(peak, now);
      samples.push({ rows, bytes: now });
    }, 100);
    const started = Date.now();
    const answer = await request(`${origin}/api/export/logs?lang=en`, { headers, bodyTimeout: 0, headersTimeout: 60_000 });
    if (answer.statusCode !== 200) throw new Error(`export answered ${answer.statusCode}: ${await answer.body.text()}`);
    for await (const chunk of answer.body) {
      const text = tail + (chunk as Buffer).toString('utf8');
      bytes += (chunk as Buffer).length;
      // Quoted details hold no line breaks here, so every CRLF ends a record.
      const records = text.split('\r\n');
      tail = records.pop() ?? '';
      rows += records.length;
    }
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    console.log(
      `\nExported ${rows.toLocaleString('en')} rows (${mib(bytes)}) in ${seconds.toFixed(0)} s (${Math.round(rows / seconds).toLocaleString('en')} rows/s)`,
    );
    console.log(`Row count ${rows === rowCount ? 'matches' : `DIFFERS from ${rowCount.toLocaleString('en')}`}`);
    console.log(`Server RSS before the export: ${mib(before)}; peak during it: ${mib(peak)} (+${mib(peak - before)})`);
    const tenths = Array.from(
      { length: 10 },
      (_, tenth) => samples.find((sample) => sample.rows >= ((tenth + 1) * rowCount) / 10) ?? samples[samples.length - 1],
    );
    console.log('RSS at each tenth of the rows:');
    for (const [tenth, sample] of tenths.entries()) if (sample) console.log(`  ${(tenth + 1) * 10}%: ${mib(sample.bytes)}`);
    if (rows !== rowCount) process.exitCode = 1;
  } finally {
    await server.stop();
    await stopAll();
    if (!values.keep) rmSync(folder, { recursive: true, force: true });
    else console.log(`Kept ${folder}`);
  }
}

await main();
