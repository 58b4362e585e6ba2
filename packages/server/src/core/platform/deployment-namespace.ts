import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { parseSqlDsn } from './sql-dsn.ts';

/**
 * This deployment's part of the Redis keys that name rows of its database (spending accounts, token
 * limits): two deployments (or test runs) sharing a Redis must not share token 2. Derived from where the database
 * is (engine, host, port, name; a SQLite file's path), never from credentials, so every instance of
 * the deployment derives the same one.
 */
export function deploymentNamespace(sqlDsn: string, sqlitePath: string): string {
  const target = parseSqlDsn(sqlDsn, sqlitePath);
  let place: string;
  if (target.dialect === 'sqlite') place = `sqlite:${resolve(target.path)}`;
  else {
    const url = new URL(target.dialect === 'postgres' ? target.connectionString : target.uri);
    place = `${target.dialect}://${url.hostname}:${url.port}${url.pathname}`;
  }
  return createHash('sha256').update(place).digest('hex').slice(0, 12);
}
