import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledMain } from '../../packages/server/src/entry/bundle/build-server-bundle.ts';
import { serverNodeFlags } from '../../packages/server/src/node-flags.ts';
import { ownedTreeSpawnOptions, ownProcessTree } from '../../packages/server/src/testing/owned-process-trees.ts';
import { nodeBinary, repoRoot, webRoot } from './paths.ts';

export interface TestServer {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  stop(): Promise<void>;
}

/** A port nobody listens on right now (the OS picks it; the server binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function waitUntilServing(child: ChildProcess, output: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      if (text.includes('Switchboard is serving')) {
        child.stdout?.off('data', onData);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before serving:\n${output.join('').slice(-4000)}`)));
  });
}

/**
 * The real server as `npm start` runs it (the bundle global-setup built, with the same Node flags),
 * serving the built console on 127.0.0.1 with a fresh SQLite database in a temporary folder. `env`
 * adds or overrides variables (INITIAL_ROOT_PASSWORD, …).
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'switchboard-e2e-'));
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(nodeBinary(), [...serverNodeFlags, bundledMain], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDir, 'switchboard.db'),
      SESSION_SECRET: 'e2e-session-secret',
      WEB_DIST_PATH: join(webRoot, 'dist'),
      LOG_LEVEL: 'info',
      // One process, so what a test sets up in memory (breaker states, limits) is what serves its next call.
      WORKERS: '1',
      // new-api's IP limits (on by default) would refuse a browser suite's hundreds of calls from one address.
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT_ENABLE: 'false',
      SEARCH_RATE_LIMIT_ENABLE: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Owned by the harness: killed at the end of the file if a test that timed out left it running.
    ...ownedTreeSpawnOptions,
  });
  ownProcessTree(child);
  await waitUntilServing(child, output);
  // Keep draining the pipes so a chatty server never blocks on a full buffer.
  child.stdout?.resume();
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
