import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The latest modification time (ms) of a file, or of anything inside a folder: how built output knows it is stale. */
export function newestChange(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}
