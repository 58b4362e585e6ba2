/**
 * Issue 33's outage check with real servers: a gateway with WORKERS=2 under load while its PostgreSQL
 * or MySQL (MariaDB) server is stopped and started again, ten times by default. The servers are private
 * ones this script starts in a temporary folder on free ports (the machine's own test servers are
 * shared and stay up). Prints one JSON line per engine: process deaths, refused and failed calls, and
 * the charges lost or written twice; exits 1 when a process died or a charge was lost or doubled.
 *
 *   node scripts/database-restarts.ts [--engine=postgres|mysql|both] [--rounds=10] [--workers=2]
 *
 * Needs root (the servers run as the postgres and mysql users) and the servers' binaries. CI runs the
 * quicker database-outage.test.ts (connections ended by the server, the network cut) instead.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { openDatabase } from '../packages/server/src/core/platform/database.ts';
import { startFakeChatUpstream } from '../packages/server/src/testing/fake-chat-upstream.ts';
import { freePort } from '../packages/server/src/testing/main-process.ts';
import { childrenOf } from '../packages/server/src/testing/process-tree.ts';
import { loginAsRoot, startRunningGateway } from '../packages/server/src/testing/running-gateway.ts';
import { outageCall } from '../packages/server/src/testing/outage-call.ts';

type Engine = 'postgres' | 'mysql';

const option = (name: string, fallback: string) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const engines: Engine[] = option('engine', 'both') === 'both' ? ['postgres', 'mysql'] : [option('engine', 'both') as Engine];
const rounds = Number(option('rounds', '10'));
const workers = Number(option('workers', '2'));
/** How long the server stays down each round, and up between rounds (load runs all along). */
const downMs = 1_500;
const upMs = 2_500;
const callers = 8;
const rootPassword = 'restarts-root-pass';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A database server of our own: started, stopped and started again on one port and data folder. */
interface PrivateServer {
  readonly dsn: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function asUser(user: string, command: string, args: string[]): void {
  execFileSync('runuser', ['-u', user, '--', command, ...args], { stdio: 'pipe' });
}

/** A folder the server's user owns, inside a root-only temporary folder made searchable for it. */
function folderFor(root: string, user: string): string {
  chmodSync(root, 0o755);
  const folder = join(root, 'data');
  mkdirSync(folder);
  const { uid, gid } = { uid: Number(execFileSync('id', ['-u', user]).toString()), gid: Number(execFileSync('id', ['-g', user]).toString()) };
  chownSync(folder, uid, gid);
  return folder;
}

async function privatePostgres(root: string): Promise<PrivateServer> {
  const data = folderFor(root, 'postgres');
  const port = await freePort();
  const bin = readdirSync('/usr/lib/postgresql').map((version) => join('/usr/lib/postgresql', version, 'bin'))[0]!;
  asUser('postgres', join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const pgCtl = (...args: string[]) => asUser('postgres', join(bin, 'pg_ctl'), ['-D', data, ...args]);
  return {
    dsn: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => pgCtl('-o', `-p ${port} -k ${data} -c listen_addresses=127.0.0.1`, '-l', join(data, 'server.log'), '-w', 'start'),
    // Fast: every connection is ended and the server goes down, as an administrator's restart does.
    stop: async () => pgCtl('-m', 'fast', '-w', 'stop'),
  };
}

async function privateMysql(root: string): Promise<PrivateServer> {
  const data = folderFor(root, 'mysql');
  const port = await freePort();
  execFileSync('mysql_install_db', ['--no-defaults', `--datadir=${data}`, '--user=mysql', '--auth-root-authentication-method=normal', '--skip-test-db'], {
    stdio: 'pipe',
  });
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(
      'mysqld',
      [
        '--no-defaults',
        `--datadir=${data}`,
        `--port=${port}`,
        '--bind-address=127.0.0.1',
        `--socket=${join(data, 'mysqld.sock')}`,
        '--user=mysql',
        '--skip-log-bin',
      ],
      { stdio: 'ignore' },
    );
    for (let attempt = 0; attempt < 600; attempt += 1) {
      const up = await createConnection({ host: '127.0.0.1', port, user: 'root' }).then(
        async (connection) => (await connection.end(), true),
        () => false,
      );
      if (up) return;
      await pause(100);
    }
    throw new Error('mysqld did not start');
  };
  return {
    dsn: `mysql://root@127.0.0.1:${port}/switchboard`,
    start: async () => {
      await start();
      const admin = await createConnection({ host: '127.0.0.1', port, user: 'root' });
      await admin.query('create database if not exists switchboard');
      await admin.end();
    },
    // SIGTERM: mysqld ends its connections and shuts down cleanly, as `mysqladmin shutdown` does.
    stop: async () => {
      const stopping = server;
      if (!stopping || stopping.exitCode !== null) return;
      const exited = new Promise((resolve) => stopping.once('exit', resolve));
      stopping.kill('SIGTERM');
      await exited;
    },
  };
}

interface Figures {
  engine: Engine;
  workers: number;
  rounds: number;
  answered: number;
  /** Calls answered otherwise than 200 with a whole answer, by status (0: no answer at all). */
  failed: Record<string, number>;
  died: number;
  lost: number;
  doubled: number;
  /** Consume logs' total against the token's used quota and its remaining quota's drop (all three agree when nothing is lost). */
  logged: number;
  tokenUsed: number;
  tokenRemainDown: number;
  seconds: number;
}

async function run(engine: Engine): Promise<Figures> {
  const began = Date.now();
  const root = mkdtempSync(join(tmpdir(), `sb-restarts-${engine}-`));
  const server = engine === 'postgres' ? await privatePostgres(root) : await privateMysql(root);
  const upstream = await startFakeChatUpstream();
  let gateway: Awaited<ReturnType<typeof startRunningGateway>> | undefined;
  try {
    await server.start();
    const folder = join(root, 'gateway');
    mkdirSync(folder);
    gateway = await startRunningGateway(
      {
        WORKERS: String(workers),
        SQL_DSN: server.dsn,
        QUOTA_JOURNAL_DIR: join(folder, 'journal'),
        SESSION_SECRET: 'restarts-session-secret',
        INITIAL_ROOT_PASSWORD: rootPassword,
        LOG_LEVEL: 'info',
        SYNC_FREQUENCY: '3600',
      },
      folder,
    );
    const started = gateway;
    for (let wait = 0; workers > 1 && !started.output().includes(`with ${workers} worker processes`); wait += 1) {
      if (wait > 600) throw new Error('the workers did not start');
      await pause(100);
    }
    const processes = [gateway.child.pid!, ...childrenOf(gateway.child.pid!)];
    const rootSession = await loginAsRoot(gateway.baseUrl, rootPassword);
    const channel = { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' };
    if (!(await rootSession.post<{ success: boolean }>('/api/channel/', channel)).success) throw new Error('no channel');
    const balance = 50_000_000;
    const token = await rootSession.post<{ data: Array<{ id: number; key: string }> }>('/api/token/', {
      name: 'restarts',
      remain_quota: balance,
      expired_time: -1,
      unlimited_quota: false,
    });
    const { id: tokenId, key } = token.data[0]!;
    const { baseUrl } = gateway;
    const relay = (ownConnection = false) => outageCall(baseUrl, key, ownConnection);
    // Every worker has the token and the channel in memory before the server goes away (a connection each).
    const warmUp = 4 * workers;
    for (let call = 0; call < warmUp; call += 1) if ((await relay(true)).status !== 200) throw new Error('warm-up call failed');

    const answered: string[] = [];
    const failed: Record<string, number> = {};
    let loading = true;
    const caller = async () => {
      while (loading) {
        const { status, requestId, whole } = await relay();
        if (status === 200 && whole) answered.push(requestId);
        else failed[status] = (failed[status] ?? 0) + 1;
      }
    };
    const load = Array.from({ length: callers }, caller);
    for (let round = 0; round < rounds; round += 1) {
      await pause(upMs);
      await server.stop();
      await pause(downMs);
      await server.start();
    }
    await pause(upMs);
    loading = false;
    await Promise.all(load);
    const died = processes.filter((pid) => !readdirSync('/proc').includes(String(pid))).length + (gateway.output().includes('worker process died') ? 1 : 0);

    const handle = await openDatabase(server.dsn, '');
    try {
      const consumeRows = () => handle.db.selectFrom('logs').select(['request_id', 'quota']).where('type', '=', 2).where('token_id', '=', tokenId).execute();
      for (let wait = 0; (await consumeRows()).length < answered.length + warmUp && wait < 120; wait += 1) await pause(500);
      const rows = await consumeRows();
      const perRequest = new Map<string, number>();
      for (const row of rows) perRequest.set(row.request_id, (perRequest.get(row.request_id) ?? 0) + 1);
      const tokenRow = await handle.db.selectFrom('tokens').select(['remain_quota', 'used_quota']).where('id', '=', tokenId).executeTakeFirstOrThrow();
      return {
        engine,
        workers,
        rounds,
        answered: answered.length,
        failed,
        died,
        lost: answered.filter((requestId) => !perRequest.has(requestId)).length,
        doubled: [...perRequest.values()].filter((count) => count > 1).length,
        logged: rows.reduce((sum, row) => sum + Number(row.quota), 0),
        tokenUsed: Number(tokenRow.used_quota),
        tokenRemainDown: balance - Number(tokenRow.remain_quota),
        seconds: Math.round((Date.now() - began) / 1000),
      };
    } finally {
      await handle.close();
    }
  } finally {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill('SIGTERM');
      await Promise.race([gateway.exited, pause(15_000)]);
      if (gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
    }
    await upstream.close();
    await server.stop().catch(() => undefined);
    if (statSync(root, { throwIfNoEntry: false })) rmSync(root, { recursive: true, force: true });
  }
}

let failedChecks = 0;
for (const engine of engines) {
  const figures = await run(engine);
  console.log(JSON.stringify(figures));
  if (figures.died > 0 || figures.lost > 0 || figures.doubled > 0 || figures.logged !== figures.tokenUsed || figures.logged !== figures.tokenRemainDown)
    failedChecks += 1;
}
process.exit(failedChecks > 0 ? 1 : 0);
