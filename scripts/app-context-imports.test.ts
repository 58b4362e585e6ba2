import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { appContextImports } from './lib/app-context-imports.ts';

const serverSource = fileURLToPath(new URL('../packages/server/src', import.meta.url));

describe('the whole application context', () => {
  it('is imported by the composition files only (issue 39: services are given what they use)', () => {
    expect(appContextImports(serverSource)).toEqual([]);
  });

  describe('on a planted tree', () => {
    const planted = mkdtempSync(join(tmpdir(), 'app-context-imports-'));
    afterAll(() => rmSync(planted, { recursive: true, force: true }));
    const plant = (file: string, source: string) => {
      mkdirSync(dirname(join(planted, file)), { recursive: true });
      writeFileSync(join(planted, file), source);
    };
    plant('app-context.ts', 'export interface AppContext {}\n');
    plant('app.ts', "import type { AppContext } from './app-context.ts';\nexport type Built = AppContext;\n");
    plant('compose-relay.ts', "import type { AppContext } from './app-context.ts';\nexport type Wired = AppContext;\n");
    plant('entry/api/token/token-module.ts', "import type { AppContext } from '../../../app-context.ts';\nexport type Whole = AppContext;\n");
    plant('domain/logs/payload-retention.ts', "export type Part = Pick<import('../../app-context.ts').AppContext, 'options'>;\n");
    plant('entry/relay/relay-services.ts', "export type { AppContext as Context } from '../../app-context';\n");
    plant('core/platform/clock.ts', '// the app-context.ts of the composition is not imported here\nexport interface Clock {}\n');
    plant('entry/api/token/token.test.ts', "import type { AppContext } from '../../../app-context.ts';\nexport type Tested = AppContext;\n");
    plant('testing/test-app.ts', "import type { AppContext } from '../app-context.ts';\nexport type Helper = AppContext;\n");

    it('finds every import outside the composition (type-only, inline, re-exported), not the composition, tests or testing/', () => {
      expect(appContextImports(planted)).toEqual([
        'domain/logs/payload-retention.ts -> ../../app-context.ts',
        'entry/api/token/token-module.ts -> ../../../app-context.ts',
        'entry/relay/relay-services.ts -> ../../app-context',
      ]);
    });
  });
});
