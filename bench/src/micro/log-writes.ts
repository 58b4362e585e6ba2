/**
 * The relay's log writes as the quota flusher makes them (LogWriter.recordMany, on SQLite through the
 * writer thread), into a fresh log database with the real schema and indexes: CPU per row of the
 * whole process (main and writer threads), for several rows per write, in turns. The rows are varied
 * as a real gateway's are (50 users, 80 tokens, 4 models, 5 channels): with one user and one model,
 * as in the throughput phases, every index insert lands at the tail of its index and the cost of a
 * commit hardly shows.
 *
 *   node bench/src/micro/log-writes.ts [--rows=200000] [--writes=200,1000] [--uniform] [--before-0032] [--before-0034] [--dsn=postgres://…/db]
 *
 * `--before-0032` puts back the four (column, created_at, id) indexes migration 0032 dropped (username,
 * model, channel, group), to measure what they cost. `--before-0034` puts back the narrow
 * `(user_id, created_at)` index in place of the covering one, to measure what its width costs.
 *
 * A PostgreSQL DSN must name a database of its own: its public schema is emptied before each measure.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { migrateLogDatabase } from '../../../packages/server/src/core/db/migrate.ts';
import { rollUpGuidedLogIndexes } from '../../../packages/server/src/core/db/migrations/0032-drop-roll-up-guided-log-indexes.ts';
import { replacedUserIndex } from '../../../packages/server/src/core/db/migrations/0034-log-user-covering-index.ts';
import { logsByUserIndex } from '../../../packages/server/src/core/db/table-definitions.ts';
import type { LogEntry } from '../../../packages/server/src/domain/logs/log-row.ts';
import { LogWriter } from '../../../packages/server/src/domain/logs/log-writer.repository.ts';
import { systemClock } from '../../../packages/server/src/core/platform/clock.ts';
import { openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const totalRows = Number(options.get('--rows') ?? 200_000);
const rowsPerWrite = (options.get('--writes') ?? '200,1000').split(',').map(Number);
const uniform = options.has('--uniform');
const dsn = options.get('--dsn') ?? '';
const before0032 = options.has('--before-0032');
const before0034 = options.has('--before-0034');
if (dsn && !dsn.startsWith('postgres')) throw new Error('--dsn takes a PostgreSQL DSN (without it: SQLite)');
const rounds = 2;

const models = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4', 'deepseek-chat'];
function logRow(index: number): LogEntry {
  const spread = (count: number) => (uniform ? 0 : index % count);
  return {
    user_id: 1 + spread(50),
    type: 2,
    created_at: 1_795_700_000 + Math.floor(index / 5_000),
    username: `user${spread(50)}`,
    token_name: `token${spread(80)}`,
    model_name: models[spread(4)]!,
    quota: 47,
    prompt_tokens: 10,
    completion_tokens: 9,
    is_stream: index % 2,
    channel_id: 1 + spread(5),
    token_id: 1 + spread(80),
    group: 'default',
    // Shaped as the relay makes them (time, process, counter): each insert lands at the index's tail.
    request_id: `20261126175500a1b2c3d4${index.toString(16).padStart(8, '0')}`,
    other: '{"model_ratio":1,"group_ratio":1,"completion_ratio":2,"frt":-1000,"admin_info":{"use_channel":[1]}}',
  };
}

async function cpuPerRow(perWrite: number): Promise<number> {
  const folder = mkdtempSync(join(tmpdir(), 'log-writes-'));
  const database = await openDatabase(dsn, join(folder, 'logs.db'), 'LOG_SQL_DSN');
  try {
    if (dsn) await sql`drop schema public cascade; create schema public`.execute(database.db);
    await migrateLogDatabase(database.db, database.dialect);
    if (before0032) {
      for (const name of rollUpGuidedLogIndexes) {
        const column = name.slice('idx_logs_'.length, -'_created_at_id'.length);
        await database.db.schema.createIndex(name).on('logs').columns([column, 'created_at', 'id']).execute();
      }
    }
    if (before0034) {
      // SQLite or PostgreSQL (see --dsn): an index is named within the schema.
      await database.db.schema.dropIndex(logsByUserIndex.name).execute();
      await database.db.schema.createIndex(replacedUserIndex).on('logs').columns(['user_id', 'created_at']).execute();
    }
    const writer = new LogWriter(database, systemClock);
    await writer.recordMany(Array.from({ length: perWrite }, (_unused, index) => logRow(index)));
    const before = process.cpuUsage();
    for (let start = 0; start < totalRows; start += perWrite) {
      await writer.recordMany(Array.from({ length: Math.min(perWrite, totalRows - start) }, (_unused, index) => logRow(start + index)));
    }
    const used = process.cpuUsage(before);
    return (used.user + used.system) / totalRows;
  } finally {
    await database.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

console.log(
  `${totalRows} log rows on ${dsn ? dsn.replace(/\/\/[^@]*@/, '//') : 'SQLite'}, ${uniform ? 'one user and model' : 'varied rows'}${before0032 ? ', with the indexes 0032 dropped' : ''}${before0034 ? ', with the narrow user index 0034 replaced' : ''}: µs of CPU per row`,
);
for (let round = 1; round <= rounds; round += 1) {
  for (const perWrite of rowsPerWrite) console.log(`  round ${round}, ${perWrite} rows per write: ${(await cpuPerRow(perWrite)).toFixed(1)}`);
}
