import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../core/platform/database.ts';
import { loginAsRoot, startRunningGateway, type RootSession, type RunningGateway } from './running-gateway.ts';
import type { TestDatabase } from './test-databases.ts';

/** What a test of the default deployment (a primary and two worker processes) works with. */
export interface TwoWorkerGateway {
  readonly gateway: RunningGateway;
  /** The gateway's own database, opened beside it to check rows directly. */
  readonly database: DatabaseHandle;
  /** Root's console session (the first start made root with `rootPassword`). */
  readonly root: RootSession;
}

const rootPassword = 'two-workers-root';

/**
 * Runs `test` against `main.ts` started as users start it with `WORKERS=2`, on a fresh (migrated)
 * database of `engine`, once both workers serve; `env` adds to or overrides the defaults. The periodic
 * reload is an hour away, so within a test only the change bus and first uses move state between the
 * workers. Whatever happens, the gateway is stopped (SIGTERM, or SIGKILL when a test left it hanging)
 * and the database and folder removed.
 */
export async function withTwoWorkerGateway(engine: TestDatabase, env: Record<string, string>, test: (world: TwoWorkerGateway) => Promise<void>): Promise<void> {
  const created = await engine.createMigrated();
  const folder = mkdtempSync(join(tmpdir(), 'sb-two-workers-'));
  const settings = {
    WORKERS: '2',
    SQL_DSN: created.sqlDsn,
    SQLITE_PATH: created.sqlitePath || join(folder, 'gateway.db'),
    QUOTA_JOURNAL_DIR: join(folder, 'journal'),
    SESSION_SECRET: 'two-workers-session-secret',
    INITIAL_ROOT_PASSWORD: rootPassword,
    // The primary says at info level when both workers serve.
    LOG_LEVEL: 'info',
    SYNC_FREQUENCY: '3600',
    ...env,
  };
  const database = await openDatabase(settings.SQL_DSN, settings.SQLITE_PATH);
  let gateway: RunningGateway | undefined;
  try {
    gateway = await startRunningGateway(settings, folder);
    const started = gateway;
    await expect.poll(() => started.output().includes('with 2 worker processes'), { timeout: 30_000 }).toBe(true);
    await test({ gateway, database, root: await loginAsRoot(gateway.baseUrl, rootPassword) });
  } finally {
    if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null) {
      gateway.child.kill('SIGTERM');
      const stopped = await Promise.race([gateway.exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
      if (!stopped) gateway.child.kill('SIGKILL');
    }
    await database.close();
    await created.drop();
    rmSync(folder, { recursive: true, force: true });
  }
}
