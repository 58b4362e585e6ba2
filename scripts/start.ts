/**
 * `npm start`: builds the console and the server bundle when they have not been built (or their
 * sources are newer), then runs the server on the pinned Node. Everything goes through npm so `node` is Node 24.
 */
import { spawn } from 'node:child_process';
import { preparedServerEntry } from '../packages/server/src/entry/bundle/server-entry.ts';
import { withServerMallocEnvironment } from '../packages/server/src/malloc-environment.ts';
import { serverNodeFlags } from '../packages/server/src/node-flags.ts';
import { buildConsoleWhenStale } from './lib/console-build.ts';

const root = new URL('..', import.meta.url).pathname;

try {
  buildConsoleWhenStale();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

// The server itself runs as a prebuilt JavaScript bundle (built here when the sources are newer): no
// TypeScript stripper in its processes, and modules compiled on first use.
const serverEntry = await preparedServerEntry();
const server = spawn(process.execPath, [...serverNodeFlags, serverEntry], { cwd: root, stdio: 'inherit', env: withServerMallocEnvironment(process.env) });
// Pass stop signals on, so the server's graceful shutdown runs when this wrapper is stopped.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
