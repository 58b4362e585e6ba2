import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeChatUpstream } from './testing/fake-chat-upstream.ts';
import { freePort, startMainProcess } from './testing/main-process.ts';

/**
 * The real entry point, started as `npm start` starts it: its own process, its own working folder,
 * only the environment given here (never the suite's SQL_DSN or Redis), so start-up failures and the
 * shutdown sequence are seen exactly as an operator sees them.
 */
const folders: string[] = [];

function temporaryFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'sb-main-'));
  folders.push(folder);
  return folder;
}

/** Starts the gateway in its own process; its output as non-empty lines. */
function startMain(env: Record<string, string>, cwd = temporaryFolder()) {
  const started = startMainProcess(env, cwd);
  return {
    ...started,
    output: () =>
      started
        .output()
        .split('\n')
        .filter((line) => line.trim() !== ''),
  };
}

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('start-up failures', () => {
  it('stops on a malformed PORT with exit code 1 and one line naming the variable', async () => {
    const started = startMain({ PORT: 'abc' });
    expect(await started.exited).toBe(1);
    const lines = started.output();
    expect(lines, lines.join('\n')).toHaveLength(1);
    expect(lines[0]).toContain('PORT');
    expect(lines.filter((line) => line.startsWith('    at '))).toEqual([]);
  });

  it('waits for an unreachable SQL_DSN, saying so in one line without its password, instead of exiting', async () => {
    const started = startMain({ SQL_DSN: 'postgres://u:p@127.0.0.1:1/x' });
    try {
      await expect.poll(() => started.output().length, { timeout: 15_000 }).toBe(1);
      // Three more tries (1 s, 2 s, 4 s apart) go by without another line and without an exit.
      await new Promise((resolve) => setTimeout(resolve, 3_500));
      const lines = started.output();
      expect(lines, lines.join('\n')).toHaveLength(1);
      expect(started.child.exitCode).toBeNull();
      expect(lines[0]).toContain('SQL_DSN');
      expect(lines[0]).toContain('postgres://u:***@127.0.0.1:1/x');
      expect(lines[0]).toContain('waiting for the database');
      expect(lines[0]).not.toContain('u:p@');
    } finally {
      started.child.kill('SIGKILL');
      await started.exited;
    }
    // Start-up, its first line (up to 15 s on a busy machine) and 3.5 s of quiet: more than the default 5 s.
  }, 30_000);
});

describe('secrets in start-up errors', () => {
  // Each secret variable with a distinctive value, in a start-up that fails (on that variable where it
  // can be invalid, otherwise on PORT): the printed error names the variable, never the value.
  it.each([
    ['INITIAL_ROOT_PASSWORD', { INITIAL_ROOT_PASSWORD: 'root-pw-secret-far-too-long' }, 'root-pw-secret-far-too-long'],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'metrics-secret' }, 'metrics-secret'],
    ['REDIS_CONN_STRING without a scheme', { REDIS_CONN_STRING: ':redis-secret@127.0.0.1:6379' }, 'redis-secret'],
    ['REDIS_CONN_STRING unreachable', { REDIS_CONN_STRING: 'redis://:redis-secret@127.0.0.1:1' }, 'redis-secret'],
    ['SESSION_SECRET', { SESSION_SECRET: 'random_string' }, 'random_string'],
    ['CRYPTO_SECRET', { CRYPTO_SECRET: 'crypto-secret', PORT: 'abc' }, 'crypto-secret'],
    ['SQL_DSN with another scheme', { SQL_DSN: 'oracle://u:sql-secret@127.0.0.1/x' }, 'sql-secret'],
    ['SQL_DSN without a user', { SQL_DSN: 'postgres://:sql-secret@127.0.0.1:1/x' }, 'sql-secret'],
    ['LOG_SQL_DSN without a user', { LOG_SQL_DSN: 'postgres://:log-secret@127.0.0.1:1/x' }, 'log-secret'],
  ])(
    'never prints %s',
    async (_name, env, secret) => {
      const started = startMain(env);
      // A database that cannot be reached is waited for (its one line printed), anything else ends start-up.
      const waiting = async () => started.output().some((line) => line.includes('waiting for the database'));
      // A start of the sources takes seconds, much longer on a machine busy with the rest of the suite.
      await Promise.race([started.exited, expect.poll(waiting, { timeout: 40_000 }).toBe(true)]);
      if (started.child.exitCode === null) {
        started.child.kill('SIGKILL');
        await started.exited;
      } else expect(started.child.exitCode).toBe(1);
      const output = started.output().join('\n');
      expect(output).toMatch(/Invalid configuration|Cannot/);
      expect(output).not.toContain(secret);
    },
    60_000,
  );
});

describe('a running server', () => {
  const folder = temporaryFolder();
  const webDist = join(folder, 'web');
  const sqlitePath = join(folder, 'data', 'gateway.db');
  let server: ReturnType<typeof startMain>;
  let baseUrl = '';
  let upstream: Awaited<ReturnType<typeof startFakeChatUpstream>>;

  beforeAll(async () => {
    mkdirSync(join(webDist, 'assets'), { recursive: true });
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    writeFileSync(join(webDist, 'assets', 'a-123.js'), 'console.log(1);');
    upstream = await startFakeChatUpstream();
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = startMain(
      { PORT: String(port), HOST: '127.0.0.1', SQLITE_PATH: sqlitePath, SESSION_SECRET: 'main-test-session-secret', WEB_DIST_PATH: webDist, LOG_LEVEL: 'warn' },
      folder,
    );
    for (let attempt = 0; ; attempt += 1) {
      const ready = await fetch(`${baseUrl}/api/status`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ready) break;
      if (attempt > 200) throw new Error(`server did not start:\n${server.output().join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await upstream.close();
  });

  it('serves hashed assets for a year and the console page revalidated, client routes included', async () => {
    const asset = await fetch(`${baseUrl}/assets/a-123.js`);
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1);');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/token']) {
      const page = await fetch(`${baseUrl}${path}`);
      expect(page.status, path).toBe(200);
      expect(page.headers.get('content-type'), path).toContain('text/html');
      expect(page.headers.get('cache-control'), path).toBe('no-cache');
      expect(await page.text(), path).toContain('<title>console</title>');
    }
  });

  it('on SIGTERM finishes, writes the queued consume log and exits 0, a connection opened and never used included', async () => {
    const login = await fetch(`${baseUrl}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: '123456' }),
    });
    const root = (await login.json()) as { data: { id: number } };
    const session = /session=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0] ?? '';
    const headers = { cookie: session, 'new-api-user': String(root.data.id), 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) =>
      (await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json() as Promise<{
        success: boolean;
        data: Array<{ key: string }>;
      }>;
    expect(
      (await post('/api/channel/', { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' })).success,
    ).toBe(true);
    const token = await post('/api/token/', { name: 'shutdown', remain_quota: 500000, expired_time: -1, unlimited_quota: true });
    const key = token.data[0]?.key ?? '';

    // The relay's caches pick the new channel and token up from the change bus: retry until they have.
    let answer: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt += 1) {
      answer = await fetch(`${baseUrl}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
      });
      if (answer.status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(answer?.status).toBe(200);

    // A connection opened ahead of use, as browsers and connection pools open them: it must not hold
    // the stop (server.close() alone waited for it until the shutdown deadline, then exited 1). The
    // status call after it makes sure the server has taken it.
    const { port } = new URL(baseUrl);
    const unused = connect(Number(port), '127.0.0.1');
    await once(unused, 'connect');
    expect((await fetch(`${baseUrl}/api/status`)).status).toBe(200);
    const unusedEnded = once(unused, 'close');

    // At once: the consume log is still in the relay's write queue (flushed every 500 ms).
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await unusedEnded;
    const database = new Database(sqlitePath, { readonly: true });
    try {
      const rows = database.prepare('select model_name, prompt_tokens, completion_tokens from logs where type = 2').all();
      expect(rows).toEqual([{ model_name: 'gpt-4o-mini', prompt_tokens: 5, completion_tokens: 2 }]);
    } finally {
      database.close();
    }
  });
});
