import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { folderCycles, folderGraph, importsAgainstLayers } from './lib/server-folder-graph.ts';

const serverSource = fileURLToPath(new URL('../packages/server/src', import.meta.url));

describe("the server's folder graph", () => {
  it('has no folder cycle', () => {
    expect(folderCycles(folderGraph(serverSource))).toEqual([]);
  });

  it('has no import against the layers (core < domain < entry < the composition) and no folder outside them', () => {
    expect(importsAgainstLayers(folderGraph(serverSource))).toEqual([]);
  });

  describe('on a planted tree', () => {
    const planted = mkdtempSync(join(tmpdir(), 'folder-graph-'));
    afterAll(() => rmSync(planted, { recursive: true, force: true }));
    const plant = (file: string, source: string) => {
      mkdirSync(dirname(join(planted, file)), { recursive: true });
      writeFileSync(join(planted, file), source);
    };
    plant('core/a/one.ts', "import { two } from '../b/two.ts';\nexport const one = two;\n");
    plant('core/b/two.ts', "export { one as two } from '../a/one.ts';\n");
    plant('core/b/uses-domain.ts', "export async function load() {\n  return import('../../domain/c/three.ts');\n}\n");
    plant('core/b/types-only.ts', "import type { Four } from '../../entry/d/four.ts';\nexport type Five = Four;\n");
    plant('domain/c/three.ts', "import { one } from '../../core/a/one.ts';\nexport const three = one;\n");
    plant('entry/d/four.ts', 'export interface Four {}\n');
    plant('entry/d/four.test.ts', "import { app } from '../../app.ts';\nexport const tested = app;\n");
    plant('app.ts', "import { three } from './domain/c/three.ts';\nexport const app = three;\n");
    plant('stray/five.ts', "export * from '../core/a/one.ts';\n");

    it('finds the cycle', () => {
      expect(folderCycles(folderGraph(planted))).toEqual([['core/a', 'core/b', 'domain/c']]);
    });

    it('finds the import against the layers and the folder outside them, not the type-only import or the test', () => {
      expect(importsAgainstLayers(folderGraph(planted))).toEqual(['core/b -> domain/c (core/b/uses-domain.ts -> domain/c/three.ts)', 'stray is in no layer']);
    });
  });
});
