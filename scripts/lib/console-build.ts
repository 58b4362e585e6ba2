import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { builtAfter } from '../../packages/server/src/entry/bundle/newest-change.ts';

const root = new URL('../..', import.meta.url).pathname;
const web = join(root, 'packages', 'web');

function bytesUnder(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size;
  }
  return total;
}

/**
 * Builds the console (`packages/web/dist`) when it is missing or older than its sources, for
 * `npm start` and the browser tests. Says so in one line: Vite's own output (a table of some 140
 * chunks) is shown only when the build fails. Throws when the build failed.
 */
export function buildConsoleWhenStale(): void {
  if (builtAfter(join(web, 'dist', 'index.html'), [join(web, 'src')])) return;
  const started = performance.now();
  process.stdout.write('Building the console… ');
  // A caller under vitest has NODE_ENV=test, which would make Vite bundle React's development build.
  const build = spawnSync('npm', ['run', 'build', '-w', '@switchboard/web'], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) {
    process.stdout.write('failed:\n');
    process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
    throw new Error('building the console failed');
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const megabytes = (bytesUnder(join(web, 'dist')) / 1024 / 1024).toFixed(1);
  process.stdout.write(`done in ${seconds} s (packages/web/dist, ${megabytes} MB)\n`);
}
