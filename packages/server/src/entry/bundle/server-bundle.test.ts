import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/platform/database.ts';
import { startFakeChatUpstream } from '../../testing/fake-chat-upstream.ts';
import { loginAsRoot, startRunningGateway } from '../../testing/running-gateway.ts';
import { buildServerBundle } from './build-server-bundle.ts';

/**
 * The prebuilt bundle `npm start` runs: built into a folder of its own beside `dist/` (same depth, so
 * the console and node_modules resolve as from `dist/`), then started as a real process that relays,
 * charges and writes its log rows through the SQLite writer thread's own bundled entry.
 */
const outdir = fileURLToPath(new URL(`../../../dist-test-${process.pid}/`, import.meta.url));
const folder = mkdtempSync(join(tmpdir(), 'sb-bundle-'));
const rootPassword = 'bundle-root-pass';

beforeAll(async () => {
  await buildServerBundle(outdir);
}, 60_000);
afterAll(() => {
  rmSync(outdir, { recursive: true, force: true });
  rmSync(folder, { recursive: true, force: true });
});

describe('the server bundle', () => {
  it('is plain ASCII JavaScript with the entry and the writer thread beside its chunks', () => {
    const files = readdirSync(outdir).filter((file) => file.endsWith('.mjs'));
    expect(files).toEqual(expect.arrayContaining(['main.mjs', 'sqlite-batch-worker.thread.mjs']));
    // Lazily loaded parts are chunks of their own, not in the code every process compiles.
    expect(files.some((file) => file.startsWith('tracing-runtime-'))).toBe(true);
    expect(files.some((file) => file.startsWith('spark-session-'))).toBe(true);
    for (const file of files) {
      const text = readFileSync(join(outdir, file), 'utf8');
      // One non-ASCII character would make V8 keep the whole source at two bytes per character.
      expect({ file, nonAscii: /[\u0080-\uffff]/.test(text) }).toEqual({ file, nonAscii: false });
      // Nothing left for a TypeScript stripper: no module is imported by its .ts name.
      expect({ file, importsTypeScript: /(?:from|import\()\s*["'][^"']*\.ts["']/.test(text) }).toEqual({ file, importsTypeScript: false });
    }
    // zod's 50 locales are left out but English, the one the server's messages come from.
    const text = files.map((file) => readFileSync(join(outdir, file), 'utf8')).join('\n');
    expect(text.includes('Invalid input')).toBe(true);
    expect(text.includes('Nieprawid')).toBe(false); // zod's Polish messages
  });

  it('starts, relays and charges, with log rows written by its writer thread', async () => {
    const upstream = await startFakeChatUpstream();
    const sqlitePath = join(folder, 'gateway.db');
    const gateway = await startRunningGateway(
      { SQLITE_PATH: sqlitePath, SESSION_SECRET: 'bundle-session-secret', INITIAL_ROOT_PASSWORD: rootPassword },
      folder,
      join(outdir, 'main.mjs'),
    );
    try {
      const root = await loginAsRoot(gateway.baseUrl, rootPassword);
      expect(
        (await root.post('/api/channel/', { type: 1, name: 'fake', key: 'sk-upstream', base_url: upstream.url, models: 'gpt-4o-mini', group: 'default' }))
          .success,
      ).toBe(true);
      const token = await root.post<{ data: Array<{ key: string }> }>('/api/token/', { name: 'bundle', remain_quota: 5_000_000, expired_time: -1 });
      const requestIds: string[] = [];
      for (let call = 0; call < 3; call += 1) {
        const answer = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${token.data[0]!.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
        });
        expect(answer.status).toBe(200);
        expect(((await answer.json()) as { usage: { total_tokens: number } }).usage.total_tokens).toBe(7);
        requestIds.push(answer.headers.get('x-oneapi-request-id') ?? '');
      }
      gateway.child.kill('SIGTERM');
      expect(await gateway.exited).toBe(0);
      const handle = await openDatabase('', sqlitePath);
      try {
        const rows = await handle.db.selectFrom('logs').select(['request_id', 'quota']).where('type', '=', 2).execute();
        expect(rows.map((row) => row.request_id).sort()).toEqual([...requestIds].sort());
        expect(rows.every((row) => Number(row.quota) > 0)).toBe(true);
      } finally {
        await handle.close();
      }
    } finally {
      gateway.child.kill('SIGKILL');
      await upstream.close();
    }
  }, 60_000);
});
