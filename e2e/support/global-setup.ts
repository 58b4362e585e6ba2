import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, webRoot } from './paths.ts';

function newestChange(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestChange(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the console once for the whole run when it is missing or older than its sources. */
export default function setup(): void {
  const builtIndex = join(webRoot, 'dist', 'index.html');
  const stale = !existsSync(builtIndex) || newestChange(join(webRoot, 'src')) > statSync(builtIndex).mtimeMs;
  if (!stale) return;
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const build = spawnSync('npm', ['run', 'build', '-w', '@switchboard/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('building the console failed');
}
