import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { unitTestSetupFiles } from '../../../../../scripts/lib/unit-test-files.ts';

// The vitest run of owned-process-trees.test.ts: only the abandoning fixture, with the unit suite's setup files.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../../../../../', import.meta.url)),
    include: ['packages/server/src/testing/abandoned-tree/abandoned-tree.fixture.ts'],
    setupFiles: unitTestSetupFiles,
    pool: 'forks',
    isolate: false,
    reporters: ['default'],
  },
});
