import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ownedTreeSpawnOptions, ownProcessTree } from './owned-process-trees.ts';

const mainPath = fileURLToPath(new URL('../main.ts', import.meta.url));

/** A gateway started as users start it (`node main.ts`), in its own process. */
export interface MainProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr together. */
  output: () => string;
  exited: Promise<number | null>;
}

/**
 * Starts `main.ts` (or `entry`, such as the built bundle's main.mjs) in `cwd` with only `env` (plus
 * PATH, HOME set to `cwd`, and one process unless `env` sets WORKERS) as its environment. The harness
 * owns its process tree (owned-process-trees.ts): whatever the test does not stop is killed at the end of
 * its file.
 */
export function startMainProcess(env: Record<string, string>, cwd: string, entry = mainPath): MainProcess {
  const child = spawn(process.execPath, [entry], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, WORKERS: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...ownedTreeSpawnOptions,
  });
  ownProcessTree(child);
  let text = '';
  child.stdout?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => text };
}

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}
