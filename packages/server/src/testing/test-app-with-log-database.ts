import type { Clock } from '../platform/clock.ts';
import { systemClock } from '../platform/clock.ts';
import { createTestApp, type TestApp } from './test-app.ts';
import type { TestDatabase } from './test-databases.ts';

/**
 * The real application with its `logs` table in a second fresh database, reached through
 * LOG_SQL_DSN as a deployment sets it (`sqlite:<path>` for a second SQLite file).
 */
export async function createTestAppWithLogDatabase(main: TestDatabase, log: TestDatabase, clock: Clock = systemClock): Promise<TestApp> {
  const logCreated = await log.create();
  const logSqlDsn = log.dialect === 'sqlite' ? `sqlite:${logCreated.sqlitePath}` : logCreated.sqlDsn;
  const testApp = await createTestApp(main, { LOG_SQL_DSN: logSqlDsn }, clock);
  return {
    ...testApp,
    async close() {
      await testApp.close();
      await logCreated.drop();
    },
  };
}
