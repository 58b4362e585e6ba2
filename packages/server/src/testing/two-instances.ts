import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import { loadConfig } from '../core/config/config.ts';
import { createLogger } from '../core/platform/logger.ts';
import { openDependencies, type OpenedDependencies } from '../open-dependencies.ts';
import type { Clock } from '../core/platform/clock.ts';
import { ipRateLimitsOff } from './test-app.ts';
import { testDatabases } from './test-databases.ts';

export interface TwoInstances {
  readonly apps: readonly [FastifyInstance, FastifyInstance];
  close(): Promise<void>;
}

/**
 * Two gateway instances on one migrated SQLite database and one Redis, as in a scaled-out deployment.
 * The periodic reload is an hour away, so anything the second instance sees came through Redis.
 * `env` adds variables to both; `clock` is shared by both (tests move time for the two at once).
 */
export async function startTwoInstances(redisUrl: string, options: { env?: Record<string, string>; clock?: Clock } = {}): Promise<TwoInstances> {
  const sqlite = testDatabases({})[0];
  if (!sqlite) throw new Error('SQLite test database missing');
  const created = await sqlite.createMigrated();
  const opened: OpenedDependencies[] = [];
  const apps: FastifyInstance[] = [];
  for (let index = 0; index < 2; index += 1) {
    const config = loadConfig({
      SQLITE_PATH: created.sqlitePath,
      REDIS_CONN_STRING: redisUrl,
      SESSION_SECRET: 'shared',
      LOG_LEVEL: 'silent',
      SYNC_FREQUENCY: '3600',
      ...ipRateLimitsOff,
      ...options.env,
    });
    const dependencies = await openDependencies(config, createLogger('silent'), options.clock);
    opened.push(dependencies);
    apps.push(await buildApp(dependencies));
  }
  const [first, second] = apps;
  if (!first || !second) throw new Error('two instances expected');
  return {
    apps: [first, second],
    async close() {
      for (const app of apps) await app.close();
      for (const dependencies of opened) await dependencies.close();
      await created.drop();
    },
  };
}
