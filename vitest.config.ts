import { defineConfig } from 'vitest/config';
import { SlowestFirstSequencer } from './scripts/lib/slowest-first-sequencer.ts';
import { filesNeedingFreshWorker, unitTestFiles, unitTestSetupFiles } from './scripts/lib/unit-test-files.ts';

/**
 * Unit and integration tests of every package (the browser suite has its own config under e2e/).
 * Files run in parallel in separate processes; each database-touching file makes its own databases.
 */
// better-sqlite3 13 crashes (SIGSEGV) on the system's Node 20; npm puts the pinned Node 24 first on PATH.
if (Number(process.versions.node.split('.')[0]) < 24) {
  throw new Error(
    `Tests need Node 24, this is ${process.version}: run them through npm (npm test, npm run test:unit -- <files>) or put node_modules/.bin first on PATH.`,
  );
}

export default defineConfig({
  test: {
    // Finds PostgreSQL, MySQL and Redis for the database suites, and under CI refuses to run without one;
    // builds the server bundle the tests' gateway processes start from (testing/gateway-bundle.ts).
    globalSetup: ['scripts/lib/test-backends.global-setup.ts', 'packages/server/src/testing/gateway-bundle.global-setup.ts'],
    pool: 'forks',
    // Vitest's default is one file at a time on two cores (cores - 1). Most files spend their time waiting
    // on databases, child processes and sockets, so three at once halve the run (1,092 s to 529 s measured
    // on the 2-core CI machine) without starving the timing-sensitive ones.
    maxWorkers: 3,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // The files that start gateway processes first, also in a fresh clone without vitest's timings.
    sequence: { sequencer: SlowestFirstSequencer },
    projects: [
      {
        test: {
          name: 'shared',
          include: unitTestFiles,
          exclude: filesNeedingFreshWorker,
          // A worker runs file after file in one module graph: importing the server's modules again for
          // every file was half the suite's CPU (entry/relay/providers, 39 files: 74 s of CPU isolated,
          // 34 s shared). Files keep no state in modules between them: each builds its own app and databases.
          isolate: false,
          setupFiles: unitTestSetupFiles,
        },
      },
      { test: { name: 'fresh-worker', include: filesNeedingFreshWorker, setupFiles: unitTestSetupFiles } },
    ],
  },
});
