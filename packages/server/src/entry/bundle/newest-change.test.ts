import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { builtAfter, newestChange } from './newest-change.ts';

/** What decides whether `npm start`, the bench and the browser tests rebuild the server bundle or the console. */
describe('built output staleness', () => {
  let root: string;
  const at = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'sb-stale-'));
    mkdirSync(join(root, 'src', 'nested'), { recursive: true });
    writeFileSync(join(root, 'src', 'a.ts'), '');
    writeFileSync(join(root, 'src', 'nested', 'b.ts'), '');
    writeFileSync(join(root, 'out.mjs'), '');
    for (const path of ['src/a.ts', 'src/nested/b.ts', 'src/nested', 'src']) at(join(root, path), 1_000);
    at(join(root, 'out.mjs'), 2_000);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('is fresh when every input is older than the output', () => {
    expect(newestChange(join(root, 'src'))).toBe(1_000_000);
    expect(builtAfter(join(root, 'out.mjs'), [join(root, 'src')])).toBe(true);
  });

  it('is stale when a file deep inside an input changed after the build', () => {
    at(join(root, 'src', 'nested', 'b.ts'), 3_000);
    expect(builtAfter(join(root, 'out.mjs'), [join(root, 'src')])).toBe(false);
  });

  it('is stale when a file was removed after the build (its folder changed)', () => {
    rmSync(join(root, 'src', 'nested', 'b.ts'));
    expect(builtAfter(join(root, 'out.mjs'), [join(root, 'src')])).toBe(false);
  });

  it('is stale when the output is missing, and checks every input given', () => {
    writeFileSync(join(root, 'package.json'), '{}');
    at(join(root, 'package.json'), 3_000);
    expect(builtAfter(join(root, 'out.mjs'), [join(root, 'src'), join(root, 'package.json')])).toBe(false);
    expect(builtAfter(join(root, 'missing.mjs'), [join(root, 'src')])).toBe(false);
  });
});
