import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The latest modification time (ms) of a file, or of anything inside a folder, the folders themselves
 * included (a folder's time moves when a file in it is added, renamed or deleted).
 */
export function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** True when `output` exists and nothing in `inputs` changed after it: built output that is not stale. */
export function builtAfter(output: string, inputs: readonly string[]): boolean {
  if (!existsSync(output)) return false;
  const built = statSync(output).mtimeMs;
  return inputs.every((input) => newestChange(input) <= built);
}
