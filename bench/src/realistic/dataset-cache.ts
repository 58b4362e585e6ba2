import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { buildDataSet } from './dataset-build.ts';
import type { DataSetShape } from './dataset-shape.ts';

/** Where generated data sets are kept between runs (git-ignored). */
export const dataSetDir = fileURLToPath(new URL('../../.data/', import.meta.url));

const migrationsDir = fileURLToPath(new URL('../../../packages/server/src/core/db/migrations/', import.meta.url));

/**
 * What a cached data set depends on: the product's migrations (the schema) and the generator's own
 * code. A change to either names a new cache, so a stale one is never used (old ones are deleted).
 */
export function dataSetFingerprint(scale: number): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(migrationsDir).sort()) hash.update(name).update(readFileSync(join(migrationsDir, name)));
  for (const name of ['dataset-shape.ts', 'dataset-build.ts', 'seeded-random.ts', 'bulk-writer.ts'])
    hash.update(readFileSync(fileURLToPath(new URL(name, import.meta.url))));
  return `s${String(scale).replace('.', '_')}_${hash.digest('hex').slice(0, 10)}`;
}

export interface CachedDataSet {
  /** The SQLite file each run copies. */
  sqliteFile?: string;
  /** The PostgreSQL database each run clones with CREATE DATABASE … TEMPLATE. */
  postgresTemplate?: string;
  /** Seconds spent generating in this run (0 when the cache was there). */
  generatedSeconds: number;
  bytes: number;
}

/** The SQLite data set, built into bench/.data/ once per fingerprint. */
export async function cachedSqliteDataSet(scale: number, shape: DataSetShape, progress: (message: string) => void): Promise<CachedDataSet> {
  mkdirSync(dataSetDir, { recursive: true });
  const name = `realistic-${dataSetFingerprint(scale)}.sqlite`;
  const file = join(dataSetDir, name);
  let generatedSeconds = 0;
  if (!existsSync(file)) {
    for (const old of readdirSync(dataSetDir))
      if (old.startsWith(`realistic-s${String(scale).replace('.', '_')}_`)) rmSync(join(dataSetDir, old), { force: true });
    progress(`generating the realistic data set (SQLite, scale ${scale}) into ${file}`);
    const started = performance.now();
    const building = `${file}.building`;
    rmSync(building, { force: true });
    await buildDataSet('', building, shape, Math.floor(Date.now() / 1000), progress);
    renameSync(building, file);
    generatedSeconds = (performance.now() - started) / 1000;
  }
  return { sqliteFile: file, generatedSeconds, bytes: statSync(file).size };
}

/** A copy of the cached SQLite data set for one run. */
export function copySqliteDataSet(cached: CachedDataSet, target: string): void {
  if (!cached.sqliteFile) throw new Error('no SQLite data set to copy');
  copyFileSync(cached.sqliteFile, target);
}

const adminClient = async (serverUrl: string) => {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  return client;
};

const databaseUrl = (serverUrl: string, name: string) => {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** The PostgreSQL data set, built once per fingerprint into a template database on that server. */
export async function cachedPostgresDataSet(
  serverUrl: string,
  scale: number,
  shape: DataSetShape,
  progress: (message: string) => void,
): Promise<CachedDataSet> {
  const template = `switchboard_bench_realistic_${dataSetFingerprint(scale)}`;
  const admin = await adminClient(serverUrl);
  let generatedSeconds = 0;
  try {
    const present = await admin.query(`select datname from pg_database where datname like $1`, [
      `switchboard_bench_realistic_s${String(scale).replace('.', '_')}_%`,
    ]);
    const names = present.rows.map((row: { datname: string }) => row.datname);
    if (!names.includes(template)) {
      for (const old of names) {
        await admin.query(`alter database "${old}" is_template false`);
        await admin.query(`drop database if exists "${old}" with (force)`);
      }
      const building = `${template}_building`;
      await admin.query(`drop database if exists "${building}" with (force)`);
      await admin.query(`create database "${building}"`);
      progress(`generating the realistic data set (PostgreSQL, scale ${scale}) into the template database ${template}`);
      const started = performance.now();
      await buildDataSet(databaseUrl(serverUrl, building), '', shape, Math.floor(Date.now() / 1000), progress);
      await admin.query(`alter database "${building}" rename to "${template}"`);
      await admin.query(`alter database "${template}" is_template true`);
      generatedSeconds = (performance.now() - started) / 1000;
    }
    const size = await admin.query(`select pg_database_size($1) as bytes`, [template]);
    return { postgresTemplate: template, generatedSeconds, bytes: Number(size.rows[0]?.bytes ?? 0) };
  } finally {
    await admin.end();
  }
}
