import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareCases, runRounds } from '../../testing/console-write-rounds.ts';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { startRunningGateway, type RunningGateway } from '../../testing/running-gateway.ts';
import { ipRateLimitsOff } from '../../testing/test-app.ts';
import { testDatabases, type TestDatabase } from '../../testing/test-databases.ts';

/**
 * What the console confirms is in force on every process: right after a write's answer, calls in
 * parallel on fresh connections (spread over the machine's workers, or over two instances) all
 * follow the new state. The periodic reload is an hour away, so only the change bus can carry it.
 */
const rootPassword = 'in-force-root-pass';
const rounds = 20;
const callsPerStep = 6;
const redisUrl = process.env.TEST_REDIS_URL;
const postgres = testDatabases().find((database) => database.dialect === 'postgres');

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function withGateways(database: TestDatabase, instances: Array<Record<string, string>>, run: (gateways: RunningGateway[]) => Promise<void>) {
  // A migrated copy (the template): what is tested is the change bus, not a first start's migration,
  // which on an empty database the first worker runs alone before the second starts.
  const created = await database.createMigrated();
  const folder = mkdtempSync(join(tmpdir(), 'sb-in-force-'));
  folders.push(folder);
  const gateways: RunningGateway[] = [];
  try {
    for (const [index, env] of instances.entries()) {
      gateways.push(
        await startRunningGateway(
          {
            SQL_DSN: created.sqlDsn,
            SQLITE_PATH: created.sqlitePath || join(folder, 'gateway.db'),
            QUOTA_JOURNAL_DIR: join(folder, `journal-${index}`),
            SESSION_SECRET: 'in-force-session-secret',
            INITIAL_ROOT_PASSWORD: rootPassword,
            SYNC_FREQUENCY: '3600',
            ...ipRateLimitsOff,
            ...env,
          },
          folder,
        ),
      );
    }
    await run(gateways);
  } finally {
    for (const gateway of gateways) gateway.child.kill('SIGTERM');
    await Promise.all(gateways.map((gateway) => gateway.exited));
    await created.drop();
  }
}

async function expectEveryCallInForce(consoleUrl: string, relayUrls: string[]): Promise<void> {
  const upstream = await startFakeChatUpstream();
  try {
    const cases = await prepareCases(consoleUrl, relayUrls, rootPassword, upstream.url);
    const report = await runRounds(cases, rounds, callsPerStep);
    expect(report.calls).toBe(cases.length * rounds * 2 * callsPerStep);
    expect(report.wrong).toEqual([]);
  } finally {
    await upstream.close();
  }
}

describe.each(testDatabases())('console writes on $dialect', (database) => {
  it('are in force on both workers (WORKERS=2) for the calls right after the answer', async () => {
    await withGateways(database, [{ WORKERS: '2', LOG_LEVEL: 'info' }], async ([gateway]) => {
      await expect.poll(() => gateway!.output().includes('with 2 worker processes'), { timeout: 30_000 }).toBe(true);
      await expectEveryCallInForce(gateway!.baseUrl, [gateway!.baseUrl]);
      expect(gateway!.output()).not.toContain('did not confirm a change');
    });
  }, 120_000);
});

describe('console writes in one process (WORKERS=1)', () => {
  it('are in force for the calls right after the answer', async () => {
    await withGateways(testDatabases({})[0]!, [{ WORKERS: '1' }], async ([gateway]) => {
      await expectEveryCallInForce(gateway!.baseUrl, [gateway!.baseUrl]);
    });
  }, 120_000);
});

describe.runIf(redisUrl && postgres)('console writes across two instances sharing PostgreSQL and Redis', () => {
  it('are in force on the other instance for the calls right after the answer', async () => {
    const instance = { WORKERS: '1', REDIS_CONN_STRING: redisUrl ?? '' };
    await withGateways(postgres!, [instance, instance], async ([first, second]) => {
      await expectEveryCallInForce(first!.baseUrl, [first!.baseUrl, second!.baseUrl]);
    });
  }, 120_000);
});
