import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { builtAfter } from '../../packages/server/src/bundle/newest-change.ts';

const root = new URL('../..', import.meta.url).pathname;
const web = join(root, 'packages', 'web');

/**
 * Builds the console (`packages/web/dist`) when it is missing or older than its sources, for
 * `npm start` and the browser tests. Throws when the build failed.
 */
export function buildConsoleWhenStale(): void {
  if (builtAfter(join(web, 'dist', 'index.html'), [join(web, 'src')])) return;
  console.log('Building the console…');
  // A caller under vitest has NODE_ENV=test, which would make Vite bundle React's development build.
  const build = spawnSync('npm', ['run', 'build', '-w', '@switchboard/web'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('building the console failed');
}
