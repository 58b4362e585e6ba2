import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../../../../app.ts';
import { loadConfig } from '../../../config/config.ts';
import { systemClock } from '../../../platform/clock.ts';
import { createLogger } from '../../../platform/logger.ts';
import { openDependencies } from '../../../../open-dependencies.ts';
import { ipRateLimitsOff, type TestApp } from '../../../../testing/test-app.ts';

export interface FixtureApp extends TestApp {
  /** The JSON log lines written at start-up and since. */
  readonly logLines: () => string[];
}

/**
 * The real application started on an existing database (a loaded fixture), as `main.ts` starts on
 * SQL_DSN: migrations, root check, every module. Unlike createTestApp it neither creates nor drops
 * the database, and it keeps what it logged.
 */
export async function startOnDatabase(database: { sqlDsn: string; sqlitePath: string }, env: Record<string, string> = {}): Promise<FixtureApp> {
  const journalFolder = mkdtempSync(join(tmpdir(), 'sb-journal-'));
  const config = loadConfig({
    SQL_DSN: database.sqlDsn,
    SQLITE_PATH: database.sqlitePath,
    SESSION_SECRET: 'test-session-secret',
    LOG_LEVEL: 'info',
    QUOTA_JOURNAL_DIR: journalFolder,
    ...ipRateLimitsOff,
    ...env,
  });
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger('info', sink);
  const dependencies = await openDependencies(config, logger, systemClock);
  const app = await buildApp(dependencies);
  await app.ready();
  return {
    app,
    context: app.switchboard.context,
    config,
    logLines: () => lines,
    async close() {
      await app.close();
      await dependencies.close();
      rmSync(journalFolder, { recursive: true, force: true });
    },
  };
}
