import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CuttableProxy, startCuttableProxy } from '../../testing/cuttable-tcp-proxy.ts';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { childrenOf } from '../../testing/process-tree.ts';
import { loginAsRoot, startRunningGateway } from '../../testing/running-gateway.ts';
import { type TestDatabase, testDatabases } from '../../testing/test-databases.ts';
import { openDatabase } from './database.ts';
import { outageCall } from '../../testing/outage-call.ts';
import { recordRunFigures } from '../../testing/run-figures.ts';

/**
 * The database going away under load never stops the gateway (issue 33 item 3): its connections
 * terminated by the server again and again (pg_terminate_backend, KILL), then the network to it cut
 * for a moment ten times (a proxy in between, so the machine's servers stay up for everyone else).
 * Every process stays up, the relay answers from memory meanwhile, and once the database is back
 * every charge is in it exactly once: the consume logs add up to the quota moved, to the unit.
 */
const rootPassword = 'outage-root-pass';
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const serverDatabases = testDatabases().filter((database) => database.dialect !== 'sqlite');

/** Ends every connection of the test database from the server's side, as an administrator would. */
async function terminateConnections(database: TestDatabase, dsn: string): Promise<number> {
  const name = new URL(dsn).pathname.slice(1);
  if (database.dialect === 'postgres') {
    const admin = new Client({ connectionString: process.env.TEST_PG_URL });
    await admin.connect();
    try {
      const result = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
      return result.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }
  const admin = await createConnection({ uri: process.env.TEST_MYSQL_URL! });
  try {
    const [rows] = await admin.query('select id from information_schema.processlist where db = ? and id <> connection_id()', [name]);
    let killed = 0;
    for (const { id } of rows as Array<{ id: number }>) {
      killed += await admin.query(`kill ${Number(id)}`).then(
        () => 1,
        () => 0, // ended meanwhile
      );
    }
    return killed;
  } finally {
    await admin.end();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each run's figures, one JSON line, in OUTAGE_FIGURES_FILE when set (repeated runs: ten per engine). */
function recordFigures(figures: Record<string, unknown>): void {
  recordRunFigures('OUTAGE_FIGURES_FILE', figures);
}

describe.each(serverDatabases)('the database going away on $dialect', (database) => {
  let created: Awaited<ReturnType<TestDatabase['createMigrated']>>;
  let proxy: CuttableProxy;
  let upstream: Awaited<ReturnType<typeof startFakeChatUpstream>>;
  // One database for both runs, migrated already (a copy of the template): migrating from empty took
  // longer than the 30 s a gateway has to answer at start on a loaded machine, and is not what this
  // test is about. The start still waits for the database (the proxy is cut) and then migrates nothing.
  beforeAll(async () => {
    created = await database.createMigrated();
    const target = new URL(created.sqlDsn);
    proxy = await startCuttableProxy(target.hostname, Number(target.port));
    upstream = await startFakeChatUpstream();
  });
  afterAll(async () => {
    await upstream?.close();
    await proxy?.close();
    await created?.drop();
  });

  it.each([1, 2])(
    'with WORKERS=%i: waits for it at start, keeps every process up and relaying, and writes every charge once when it is back',
    async (workers) => {
      const folder = mkdtempSync(join(tmpdir(), 'sb-outage-'));
      folders.push(folder);
      const proxied = new URL(created.sqlDsn);
      proxied.host = `127.0.0.1:${proxy.port}`;
      // Started while the database cannot be reached: it waits (no exit, no crash loop) and starts once it can.
      await proxy.cut();
      const refusedBefore = proxy.refused;
      const restored = (async () => {
        while (proxy.refused === refusedBefore) await pause(50);
        await pause(300);
        await proxy.restore();
      })();
      const gateway = await startRunningGateway(
        {
          WORKERS: String(workers),
          SQL_DSN: proxied.toString(),
          QUOTA_JOURNAL_DIR: join(folder, 'journal'),
          SESSION_SECRET: 'outage-session-secret',
          INITIAL_ROOT_PASSWORD: rootPassword,
          LOG_LEVEL: 'info',
          SYNC_FREQUENCY: '3600',
        },
        folder,
      );
      await restored;
      try {
        if (workers > 1) await expect.poll(() => gateway.output().includes(`with ${workers} worker processes`), { timeout: 60_000 }).toBe(true);
        expect(gateway.output()).toContain('waiting for the database');
        const processes = [gateway.child.pid!, ...childrenOf(gateway.child.pid!)];
        expect(processes).toHaveLength(workers > 1 ? workers + 1 : 1);
        const { baseUrl } = gateway;
        const root = await loginAsRoot(baseUrl, rootPassword);
        if (workers === 1) {
          const channel = { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' };
          expect((await root.post('/api/channel/', channel)).success).toBe(true);
        }
        const token = await root.post<{ success: boolean; data: Array<{ id: number; key: string }> }>('/api/token/', {
          name: `outage-${workers}`,
          remain_quota: 50_000_000,
          expired_time: -1,
          unlimited_quota: false,
        });
        const { id: tokenId, key } = token.data[0]!;
        const relay = (ownConnection = false) => outageCall(baseUrl, key, ownConnection);
        // Every worker has the token and the channel in memory before the database goes away. Each call
        // on a connection of its own: calls on one kept-alive connection all reach the same worker, and
        // a worker that never saw the token must read it, from a database that is going away (500).
        const warmUp = 4 * workers;
        for (let round = 0; round < warmUp; round += 1) expect((await relay(true)).status).toBe(200);

        const answered: string[] = [];
        const failures: number[] = [];
        let loading = true;
        const caller = async () => {
          while (loading) {
            const { status, requestId, whole } = await relay();
            if (status === 200 && whole) answered.push(requestId);
            else failures.push(status);
          }
        };
        const callers = Array.from({ length: 8 }, caller);

        // (a) The server ends the gateway's connections, ten times under load.
        let terminated = 0;
        for (let round = 0; round < 10; round += 1) {
          await pause(150);
          terminated += await terminateConnections(database, created.sqlDsn);
        }
        expect(terminated).toBeGreaterThan(0);
        // (b) The network to the database cut and restored, ten times under load.
        for (let round = 0; round < 10; round += 1) {
          await proxy.cut();
          await pause(400);
          await proxy.restore();
          await pause(250);
        }
        loading = false;
        await Promise.all(callers);

        // Nobody died, and the callers were answered all along (from memory while the database was away).
        const died = processes.filter((pid) => !readdirSync('/proc').includes(String(pid)));
        const run = { dialect: database.dialect, workers };
        recordFigures({ ...run, stage: 'load', answered: answered.length, failed: failures.length, failures, terminated, died: died.length });
        expect(died).toEqual([]);
        expect(gateway.output()).not.toContain('worker process died');
        // The gateway's own lines of the failed calls and of any error, to say why.
        const why = gateway
          .output()
          .split('\n')
          .filter((line) => line.includes('"level":50') || /"status":5\d\d/.test(line))
          .slice(0, 20)
          .join('\n');
        expect(failures, why).toEqual([]);
        expect(answered.length).toBeGreaterThan(50);

        // Back: every answer's charge reaches the database, once.
        const handle = await openDatabase(created.sqlDsn, '');
        try {
          const consumeRows = () =>
            handle.db.selectFrom('logs').select(['request_id', 'quota']).where('type', '=', 2).where('token_id', '=', tokenId).execute();
          await expect.poll(async () => (await consumeRows()).length, { timeout: 30_000, interval: 250 }).toBeGreaterThanOrEqual(answered.length + warmUp);
          const rows = await consumeRows();
          const perRequest = new Map<string, number>();
          for (const row of rows) perRequest.set(row.request_id, (perRequest.get(row.request_id) ?? 0) + 1);
          expect(answered.filter((requestId) => perRequest.get(requestId) !== 1)).toEqual([]);
          expect([...perRequest].filter(([, count]) => count > 1)).toEqual([]);
          const logged = rows.reduce((sum, row) => sum + Number(row.quota), 0);
          const tokenRow = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
          expect(logged).toBeGreaterThan(0);
          const lost = answered.filter((requestId) => !perRequest.has(requestId)).length;
          const doubled = [...perRequest].filter(([, count]) => count > 1).length;
          recordFigures({ ...run, stage: 'charges', consumeRows: rows.length, lost, doubled, logged, tokenUsed: Number(tokenRow.used_quota) });
          expect({ tokenRemainDown: 50_000_000 - Number(tokenRow.remain_quota), tokenUsed: Number(tokenRow.used_quota) }).toEqual({
            tokenRemainDown: logged,
            tokenUsed: logged,
          });
          // The user's total over both runs, to the unit.
          const allRows = await handle.db.selectFrom('logs').select('quota').where('type', '=', 2).where('user_id', '=', root.id).execute();
          const user = await handle.db.selectFrom('users').select(['used_quota']).where('id', '=', root.id).executeTakeFirstOrThrow();
          expect(Number(user.used_quota)).toBe(allRows.reduce((sum, row) => sum + Number(row.quota), 0));
        } finally {
          await handle.close();
        }
        // Still serving, and a clean stop.
        expect((await relay()).status).toBe(200);
        gateway.child.kill('SIGTERM');
        expect(await gateway.exited).toBe(0);
      } finally {
        if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      }
    },
    // Starts alone took over 30 s on the loaded 2-core machine.
    240_000,
  );
});
