import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/platform/database.ts';
import { writerThreadName } from '../../core/platform/sqlite-batch-worker.ts';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { childrenOf, isRunning } from '../../testing/process-tree.ts';
import { loginAsRoot, startRunningGateway } from '../../testing/running-gateway.ts';
import { testDatabases } from '../../testing/test-databases.ts';

/**
 * WORKERS=2 as users run it, without Redis: two gateway processes on one port behind a supervising
 * primary. What one worker changes the other serves once the console answers (the primary repeats
 * changes and collects the workers' confirmations), short-lived
 * values such as login failure counts are the machine's, quota stays exact to the unit across the
 * processes (even when one is killed mid-burst and replaced), and SIGTERM stops all of them cleanly.
 */
const rootPassword = 'workers-root-pass';
const metricsToken = 'workers-metrics-token-0123456789';
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

const chatBody = JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });

/** How many of the process's threads are SQLite batch writers (the operating system's thread names). */
function writerThreadsOf(pid: number): number {
  return readdirSync(`/proc/${pid}/task`).filter((thread) => {
    try {
      return readFileSync(`/proc/${pid}/task/${thread}/comm`, 'utf8').trim() === writerThreadName;
    } catch {
      return false; // ended between the listing and the read
    }
  }).length;
}

/** The `start_time` values `/api/status` answers over six calls, which the primary spreads over its workers. */
async function startTimesSeen(baseUrl: string): Promise<Set<number>> {
  const seen = new Set<number>();
  for (let call = 0; call < 6; call += 1) {
    const status = (await (await fetch(`${baseUrl}/api/status`)).json()) as { data: { start_time: number } };
    seen.add(status.data.start_time);
  }
  return seen;
}

async function relay(baseUrl: string, key: string): Promise<{ status: number; requestId: string | undefined }> {
  try {
    const answer = await fetch(`${baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
      body: chatBody,
      // A connection handed to the worker being killed may never be answered: a client gives up on it.
      signal: AbortSignal.timeout(15_000),
    });
    const text = await answer.text();
    const whole = answer.status === 200 && text.includes('"total_tokens":7');
    return { status: answer.status, requestId: whole ? (answer.headers.get('x-oneapi-request-id') ?? undefined) : undefined };
  } catch {
    return { status: 0, requestId: undefined };
  }
}

describe.each(testDatabases())('two worker processes on $dialect', (database) => {
  it('share changes, short-lived values and exact quota, survive a killed worker, and stop together', async () => {
    const created = await database.create();
    const folder = mkdtempSync(join(tmpdir(), 'sb-workers-'));
    folders.push(folder);
    const upstream = await startFakeChatUpstream();
    const env = {
      WORKERS: '2',
      SQL_DSN: created.sqlDsn,
      SQLITE_PATH: created.sqlitePath || join(folder, 'gateway.db'),
      QUOTA_JOURNAL_DIR: join(folder, 'journal'),
      SESSION_SECRET: 'workers-session-secret',
      INITIAL_ROOT_PASSWORD: rootPassword,
      LOG_LEVEL: 'info',
      METRICS_TOKEN: metricsToken,
      // Hours: only the change bus can tell the other worker of a change within this test.
      SYNC_FREQUENCY: '3600',
    };
    const handle = await openDatabase(env.SQL_DSN, env.SQLITE_PATH);
    const gateway = await startRunningGateway(env, folder);
    try {
      const primary = gateway.child.pid!;
      // The first worker answers at once; the second starts once it has migrated.
      await expect.poll(() => gateway.output().includes('with 2 worker processes'), { timeout: 30_000 }).toBe(true);
      expect(childrenOf(primary)).toHaveLength(2);
      const { baseUrl } = gateway;
      const root = await loginAsRoot(baseUrl, rootPassword);
      const startQuota = Number((await handle.db.selectFrom('users').select('quota').where('id', '=', root.id).executeTakeFirstOrThrow()).quota);
      expect(
        (await root.post('/api/channel/', { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' }))
          .success,
      ).toBe(true);
      const token = await root.post<{ success: boolean; data: Array<{ id: number; key: string }> }>('/api/token/', {
        name: 'burst',
        remain_quota: 50_000_000,
        expired_time: -1,
        unlimited_quota: false,
      });
      const { id: tokenId, key } = token.data[0]!;

      // Calls spread over both workers, which tell one start time (the primary's).
      const firstStartTimes = await startTimesSeen(baseUrl);
      expect(firstStartTimes.size).toBe(1);

      // Both workers serve it, and each has the token in its cache after a few rounds.
      for (let round = 0; round < 8; round += 1) expect((await relay(baseUrl, key)).status).toBe(200);

      // A burst over both processes, one of them killed in the middle and replaced by the primary.
      const answered: string[] = [];
      let sent = 0;
      let killed: number | undefined;
      const caller = async () => {
        while (sent < 300) {
          sent += 1;
          const { requestId } = await relay(baseUrl, key);
          if (requestId) answered.push(requestId);
          if (answered.length === 100 && killed === undefined) {
            killed = childrenOf(primary)[0]!;
            process.kill(killed, 'SIGKILL');
          }
        }
      };
      await Promise.all(Array.from({ length: 16 }, caller));
      expect(killed).toBeDefined();
      // Its replacement serves (the primary says so) beside the survivor; the start said it serves once, at the address bound.
      const replacementServes = () => gateway.output().includes('"msg":"the replacement worker process is serving"');
      await expect.poll(replacementServes, { timeout: 30_000 }).toBe(true);
      expect(gateway.output().match(/"msg":"Switchboard is serving on http:\/\/127\.0\.0\.1:\d+ with 2 worker processes"/g)).toHaveLength(1);
      expect(childrenOf(primary).filter((pid) => pid !== killed)).toHaveLength(2);
      // The replacement, started seconds later, tells the same start time as the others.
      expect(await startTimesSeen(baseUrl)).toEqual(firstStartTimes);
      // Calls caught by the kill fail; every other answer is whole.
      expect(answered.length).toBeGreaterThan(250);
      // On SQLite the machine has one writer, a thread of the primary, whose batches came from both
      // workers (the killed one's included): no WAL lock waits between two writers.
      if (database.dialect === 'sqlite') {
        expect(writerThreadsOf(primary)).toBe(1);
        expect(childrenOf(primary).map(writerThreadsOf)).toEqual([0, 0]);
      }

      // Disabled through one worker: refused by both at once (the PUT answers once both applied it;
      // the replacement worker, started after the kill, confirms too).
      expect((await root.put('/api/token/?status_only=true', { id: tokenId, status: 2 })).success).toBe(true);
      const refusedBoth = async () => (await Promise.all(Array.from({ length: 12 }, () => relay(baseUrl, key)))).map((answer) => answer.status);
      expect(await refusedBoth()).toEqual(Array(12).fill(401));
      expect(gateway.output()).not.toContain('did not confirm a change');

      // A scrape reaches one worker, and the primary adds up both: every scrape tells the same total.
      const scrape = async () => {
        const text = await (await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
        return Number(/^switchboard_relay_requests_charged_total (\d+)/m.exec(text)?.[1] ?? -1);
      };
      const totals = [await scrape(), await scrape(), await scrape(), await scrape()];
      expect(totals[0]).toBeGreaterThan(0);
      expect(new Set(totals).size).toBe(1);

      // Login failures at one username count across the processes: ten wrong passwords, then even the
      // right one is refused (each process alone would have seen about five).
      for (let attempt = 0; attempt < 10; attempt += 1) {
        const wrong = await fetch(`${baseUrl}/api/user/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'root', password: 'wrong-password' }),
        });
        expect(wrong.status).not.toBe(429);
      }
      const locked = await fetch(`${baseUrl}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'root', password: rootPassword }),
      });
      expect(locked.status).toBe(429);

      // SIGTERM to the primary stops every worker gracefully, pending writes included.
      const workers = childrenOf(primary);
      gateway.child.kill('SIGTERM');
      // The tree's last output in the message: a worker that outlives its shutdown deadline says so there.
      const exitCode = await gateway.exited;
      expect(exitCode, `the gateway exited ${exitCode}; its last output:\n${gateway.output().slice(-4000)}`).toBe(0);
      expect(workers.filter((pid) => readdirSync('/proc').includes(String(pid)))).toEqual([]);

      // The killed worker's unwritten charges were replayed from its journal by its replacement: every
      // whole answer has exactly one consume row, and every balance moved by exactly what the rows say.
      const rows = await handle.db.selectFrom('logs').select(['request_id', 'quota']).where('type', '=', 2).execute();
      const perRequest = new Map<string, number>();
      for (const row of rows) perRequest.set(row.request_id, (perRequest.get(row.request_id) ?? 0) + 1);
      expect(answered.filter((requestId) => perRequest.get(requestId) !== 1)).toEqual([]);
      expect([...perRequest].filter(([, count]) => count > 1)).toEqual([]);
      const logged = rows.reduce((sum, row) => sum + Number(row.quota), 0);
      const user = await handle.db.selectFrom('users').select(['quota', 'used_quota']).where('id', '=', root.id).executeTakeFirstOrThrow();
      const tokenRow = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
      expect(logged).toBeGreaterThan(0);
      expect({
        userDown: startQuota - Number(user.quota),
        userUsed: Number(user.used_quota),
        tokenUsed: Number(tokenRow.used_quota),
        tokenRemainDown: 50_000_000 - Number(tokenRow.remain_quota),
      }).toEqual({ userDown: logged, userUsed: logged, tokenUsed: logged, tokenRemainDown: logged });
    } finally {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      await handle.close();
      await upstream.close();
      await created.drop();
    }
  }, 120_000);
});

/** `npm start` with two workers on a fresh SQLite file and journal, its folder removed after the file. */
async function startTwoWorkersOnSqlite() {
  const folder = mkdtempSync(join(tmpdir(), 'sb-workers-'));
  folders.push(folder);
  return startRunningGateway(
    {
      WORKERS: '2',
      SQLITE_PATH: join(folder, 'gateway.db'),
      QUOTA_JOURNAL_DIR: join(folder, 'journal'),
      SESSION_SECRET: 'workers-session-secret',
      INITIAL_ROOT_PASSWORD: rootPassword,
      LOG_LEVEL: 'info',
    },
    folder,
  );
}

describe('a primary killed with SIGKILL', () => {
  it('leaves no worker behind holding the port (Node ends a worker whose primary is gone)', async () => {
    const gateway = await startTwoWorkersOnSqlite();
    try {
      await expect.poll(() => gateway.output().includes('with 2 worker processes'), { timeout: 30_000 }).toBe(true);
      const workers = childrenOf(gateway.child.pid!);
      expect(workers).toHaveLength(2);
      gateway.child.kill('SIGKILL');
      await gateway.exited;
      await expect.poll(() => workers.filter(isRunning), { timeout: 20_000 }).toEqual([]);
    } finally {
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    }
  }, 60_000);
});

/** One call on `agent`'s connections: its status, and its Retry-After when refused. */
function callOn(agent: Agent, url: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<string> {
  return new Promise((resolve) => {
    const call = request(url, { agent, method: init.method, headers: init.headers }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(String(answer.statusCode)));
    });
    call.on('error', (error) => resolve(`error ${error.message}`));
    call.end(init.body);
  });
}

describe('a primary that does not answer for 6 s (SIGSTOP: a busy or swapped-out primary)', () => {
  it("holds its workers' paying calls until it answers again, instead of failing them", async () => {
    const upstream = await startFakeChatUpstream();
    const gateway = await startTwoWorkersOnSqlite();
    // The primary hands new connections to the workers: a paused one hands none. Calls go on
    // connections opened before, two per worker (spread round-robin).
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const primary = gateway.child.pid!;
    let paused = false;
    try {
      await expect.poll(() => gateway.output().includes('with 2 worker processes'), { timeout: 30_000 }).toBe(true);
      const root = await loginAsRoot(gateway.baseUrl, rootPassword);
      const channel = { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' };
      expect((await root.post('/api/channel/', channel)).success).toBe(true);
      const token = await root.post<{ data: Array<{ key: string }> }>('/api/token/', { name: 'paused', remain_quota: 50_000_000, expired_time: -1 });
      const key = token.data[0]!.key;
      const opened = await Promise.all(Array.from({ length: 4 }, () => callOn(agent, `${gateway.baseUrl}/api/status`, { method: 'GET' })));
      expect(opened).toEqual(['200', '200', '200', '200']);

      // No worker holds a lease on the new token's balances yet: each call asks the primary.
      process.kill(primary, 'SIGSTOP');
      paused = true;
      const headers = { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' };
      const calls = Promise.all(
        Array.from({ length: 4 }, () => callOn(agent, `${gateway.baseUrl}/v1/chat/completions`, { method: 'POST', headers, body: chatBody })),
      );
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      process.kill(primary, 'SIGCONT');
      paused = false;
      expect(await calls).toEqual(['200', '200', '200', '200']);
    } finally {
      if (paused) process.kill(primary, 'SIGCONT');
      agent.destroy();
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      await upstream.close();
    }
  }, 90_000);
});
