import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { builtAfter } from '../../packages/server/src/bundle/newest-change.ts';
import { preparedServerEntry } from '../../packages/server/src/bundle/server-entry.ts';
import { repoRoot, webRoot } from './paths.ts';

/**
 * Builds, once for the whole run, the server bundle the tests' servers run (as `npm start` runs it)
 * and the console, each when it is missing or older than its sources.
 */
export default async function setup(): Promise<void> {
  await preparedServerEntry((message) => {
    throw new Error(message);
  });
  const builtIndex = join(webRoot, 'dist', 'index.html');
  const stale = !builtAfter(builtIndex, [join(webRoot, 'src')]);
  if (!stale) return;
  // vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const build = spawnSync('npm', ['run', 'build', '-w', '@switchboard/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (build.status !== 0) throw new Error('building the console failed');
}
