/**
 * The quota flusher's batched write (QuotaRepository.writeBatch) on PostgreSQL and MariaDB/MySQL:
 * wall time and this process's CPU time per flush, for batches of 100, 1,000 and 5,000 distinct
 * tokens (as many users, 200 channels), median of several runs. Each engine gets a database of its
 * own, seeded with 5,000 users, 5,000 tokens and 200 channels, dropped at the end. Several versions of
 * the repository (another checkout's quota.repository.ts, to compare with the code before a change)
 * are measured in turns, so a busy machine slows them alike.
 *
 *   node bench/src/micro/quota-flush.ts [--runs=7] [--sizes=100,1000,5000] [--engines=postgres,mysql]
 *     [--pg=postgres://…/postgres] [--mysql=mysql://…/test] [--repositories=/a/quota.repository.ts,/b/…]
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../packages/server/src/core/db/schema.ts';
import { migrateMainDatabase } from '../../../packages/server/src/core/db/migrate.ts';
import { type DatabaseHandle, openDatabase } from '../../../packages/server/src/core/platform/database.ts';
import { PendingDeltas } from '../../../packages/server/src/domain/billing/pending-deltas.ts';
import { scriptOptions } from '../platform/script-options.ts';

const options = scriptOptions(process.argv.slice(2));
const runs = Number(options.get('--runs') ?? 7);
const sizes = (options.get('--sizes') ?? '100,1000,5000').split(',').map(Number);
const engines = (options.get('--engines') ?? 'postgres,mysql').split(',');
const adminDsn: Record<string, string> = {
  postgres: options.get('--pg') ?? process.env.BENCH_PG_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres',
  mysql: options.get('--mysql') ?? process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test',
};
const thisRepository = fileURLToPath(new URL('../../../packages/server/src/domain/billing/quota.repository.ts', import.meta.url));
const repositoryFiles = (options.get('--repositories') ?? thisRepository).split(',');
const benchDatabase = 'quota_flush_bench';
const userCount = 5_000;
const tokenCount = 5_000;
const channelCount = 200;
const warmUp = 2;

interface Repository {
  writeBatch(batch: PendingDeltas, now: number): Promise<void>;
}
type RepositoryClass = new (database: Pick<DatabaseHandle, 'db' | 'dialect' | 'batchWorker'>) => Repository;

/** The bench database's DSN on the admin DSN's server. */
function benchDsn(admin: string): string {
  const url = new URL(admin);
  url.pathname = `/${benchDatabase}`;
  return url.toString();
}

async function recreateDatabase(admin: string, drop = false): Promise<void> {
  const handle = await openDatabase(admin, '');
  try {
    if (handle.dialect === 'postgres') await sql`drop database if exists ${sql.id(benchDatabase)} with (force)`.execute(handle.db);
    else await sql`drop database if exists ${sql.id(benchDatabase)}`.execute(handle.db);
    if (!drop) await sql`create database ${sql.id(benchDatabase)}`.execute(handle.db);
  } finally {
    await handle.close();
  }
}

/** The rows by plain INSERTs (every other column takes its default): only ids and quotas matter here. */
async function seed(db: Kysely<Database>): Promise<void> {
  const rowsPerInsert = 500;
  for (let start = 1; start <= userCount; start += rowsPerInsert) {
    const ids = Array.from({ length: Math.min(rowsPerInsert, userCount - start + 1) }, (_unused, index) => start + index);
    const users = ids.map((id) => sql`(${id}, ${`bench${id}`}, 'x', ${`access${id}`}, ${`aff${id}`}, ${1e12})`);
    await sql`insert into users (id, username, password, access_token, aff_code, quota) values ${sql.join(users)}`.execute(db);
    const tokens = ids.map((id) => sql`(${id}, ${id}, ${`bench-${id}`}, ${1e12})`);
    await sql`insert into tokens (id, user_id, ${sql.id('key')}, remain_quota) values ${sql.join(tokens)}`.execute(db);
  }
  const channels = Array.from({ length: channelCount }, (_unused, index) => sql`(${index + 1}, ${`sk-upstream-${index}`})`);
  await sql`insert into channels (id, ${sql.id('key')}) values ${sql.join(channels)}`.execute(db);
}

/** `size` distinct tokens and users picked at random, every channel, small charges. */
function batchOf(size: number): PendingDeltas {
  const batch = new PendingDeltas();
  const pick = (count: number) => {
    const ids = Array.from({ length: count }, (_unused, index) => index + 1);
    for (let index = ids.length - 1; index > 0; index -= 1) {
      const other = Math.floor(Math.random() * (index + 1));
      [ids[index], ids[other]] = [ids[other]!, ids[index]!];
    }
    return ids.slice(0, size);
  };
  for (const id of pick(tokenCount)) batch.addToken(id, -47, 47);
  for (const id of pick(userCount)) batch.addUser(id, -47, 47, 1);
  for (let id = 1; id <= channelCount; id += 1) batch.addChannel(id, 47);
  return batch;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const repositories = await Promise.all(
  repositoryFiles.map(async (file) => ({ file, Class: ((await import(pathToFileURL(file).href)) as { QuotaRepository: RepositoryClass }).QuotaRepository })),
);
for (const engine of engines) {
  const admin = adminDsn[engine]!;
  await recreateDatabase(admin);
  const handle = await openDatabase(benchDsn(admin), '');
  try {
    await migrateMainDatabase(handle.db, handle.dialect);
    await seed(handle.db);
    console.log(`${engine} (${userCount} users, ${tokenCount} tokens, ${channelCount} channels): median of ${runs} flushes, wall ms / client CPU ms`);
    for (const size of sizes) {
      const figures = new Map(repositories.map(({ file }) => [file, { wall: [] as number[], cpu: [] as number[] }]));
      for (let run = 0; run < warmUp + runs; run += 1) {
        for (const { file, Class } of repositories) {
          const repository = new Class(handle);
          const batch = batchOf(size);
          const cpuBefore = process.cpuUsage();
          const started = performance.now();
          await repository.writeBatch(batch, 1_795_700_000);
          const wall = performance.now() - started;
          const cpu = process.cpuUsage(cpuBefore);
          if (run < warmUp) continue;
          figures.get(file)!.wall.push(wall);
          figures.get(file)!.cpu.push((cpu.user + cpu.system) / 1_000);
        }
      }
      for (const [file, { wall, cpu }] of figures) {
        console.log(
          `  ${size} tokens, ${Math.min(size, userCount)} users, ${channelCount} channels: ${median(wall).toFixed(1)} / ${median(cpu).toFixed(1)}  ${file}`,
        );
      }
    }
  } finally {
    await handle.close();
    await recreateDatabase(admin, true);
  }
}
