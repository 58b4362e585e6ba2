import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders that hold no production code: test helpers, recorded fixtures, installed packages. */
const skippedFolders = new Set(['testing', '__fixtures__', 'node_modules']);

/** The server's production TypeScript files under `folder` (no tests, no test helpers), as paths. */
export function serverProductionFiles(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!skippedFolders.has(entry.name)) files.push(...serverProductionFiles(path));
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(path);
  }
  return files;
}
