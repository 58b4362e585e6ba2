import { readFileSync } from 'node:fs';
import { safeParseJson } from '../../../../../core/platform/safe-json.ts';

/** Reads a recorded JSON body from a provider's `__fixtures__` folder. */
export function readJsonFixture(folderUrl: URL, name: string): unknown {
  const parsed = safeParseJson(readFileSync(new URL(name, folderUrl), 'utf8'));
  if (!parsed.ok) throw new Error(`fixture ${name}: ${parsed.error}`);
  return parsed.value;
}

/** Reads a recorded stream (`*.chunks.txt`) as raw text, exactly as the vendor sends it. */
export function readStreamFixture(folderUrl: URL, name: string): string {
  return readFileSync(new URL(name, folderUrl), 'utf8');
}
