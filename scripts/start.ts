/**
 * `npm start`: builds the console when it has not been built (or its sources are newer), then runs
 * the server on the pinned Node. Everything goes through npm so `node` is Node 24.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { serverNodeFlags } from '../packages/server/src/node-flags.ts';

const root = new URL('..', import.meta.url).pathname;
const web = join(root, 'packages', 'web');
const builtIndex = join(web, 'dist', 'index.html');

function newestChange(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

const stale = !existsSync(builtIndex) || newestChange(join(web, 'src')) > statSync(builtIndex).mtimeMs;
if (stale) {
  console.log('Building the console…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@switchboard/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, [...serverNodeFlags, join(root, 'packages', 'server', 'src', 'main.ts')], { cwd: root, stdio: 'inherit' });
// Pass stop signals on, so the server's graceful shutdown runs when this wrapper is stopped.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
