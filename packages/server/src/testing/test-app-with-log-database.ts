import type { Clock } from '../core/platform/clock.ts';
import { systemClock } from '../core/platform/clock.ts';
import { startTestApp, type TestApp } from './test-app.ts';
import type { TestDatabase } from './test-databases.ts';

/**
 * The real application with its `logs` table in a second database, reached through LOG_SQL_DSN as a
 * deployment sets it (`sqlite:<path>` for a second SQLite file). Both start empty, as a deployment's
 * do, and the start migrates each with its own migrations: the main database gets no log tables.
 */
export async function createTestAppWithLogDatabase(main: TestDatabase, log: TestDatabase, clock: Clock = systemClock): Promise<TestApp> {
  const logCreated = await log.create();
  const logSqlDsn = log.dialect === 'sqlite' ? `sqlite:${logCreated.sqlitePath}` : logCreated.sqlDsn;
  const testApp = await startTestApp(await main.create(), { LOG_SQL_DSN: logSqlDsn }, clock);
  return {
    ...testApp,
    async close() {
      await testApp.close();
      await logCreated.drop();
    },
  };
}
