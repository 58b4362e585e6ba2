import { buildApp } from '../app.ts';
import { loadConfig } from '../config/config.ts';
import { migrateLogDatabase } from '../db/migrate.ts';
import { systemClock, type Clock } from '../platform/clock.ts';
import { openDatabase } from '../platform/database.ts';
import { createLogger } from '../platform/logger.ts';
import { openDependencies } from '../platform/open-dependencies.ts';
import type { TestApp } from './test-app.ts';
import type { TestDatabase } from './test-databases.ts';

/**
 * The real application with its `logs` table in a second fresh database, as LOG_SQL_DSN deploys it.
 * A PostgreSQL or MySQL log database goes through LOG_SQL_DSN itself. A SQLite one cannot (like
 * new-api, a `local…` DSN means SQLITE_PATH, the main file), so it is opened and migrated here the
 * way `openDependencies` opens LOG_SQL_DSN, and handed to `buildApp` as the log database.
 */
export async function createTestAppWithLogDatabase(main: TestDatabase, log: TestDatabase, clock: Clock = systemClock): Promise<TestApp> {
  const created = await main.create();
  const logCreated = await log.create();
  const env: Record<string, string> = { SQL_DSN: created.sqlDsn, SQLITE_PATH: created.sqlitePath, SESSION_SECRET: 'test-session-secret', LOG_LEVEL: 'silent' };
  if (log.dialect !== 'sqlite') env.LOG_SQL_DSN = logCreated.sqlDsn;
  const config = loadConfig(env);
  const dependencies = await openDependencies(config, createLogger(config.logLevel), clock);
  const separateSqlite = log.dialect === 'sqlite' ? await openDatabase('', logCreated.sqlitePath, 'LOG_SQL_DSN') : undefined;
  if (separateSqlite) await migrateLogDatabase(separateSqlite.db, separateSqlite.dialect);
  const app = await buildApp(separateSqlite ? { ...dependencies, logDatabase: separateSqlite } : dependencies);
  await app.ready();
  return {
    app,
    context: app.switchboard.context,
    config,
    async close() {
      await app.close();
      await separateSqlite?.close();
      await dependencies.close();
      await created.drop();
      await logCreated.drop();
    },
  };
}
