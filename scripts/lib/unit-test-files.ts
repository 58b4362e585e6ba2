/** The unit and integration suite's test files (vitest.config.ts), relative to the repository root. */
export const unitTestFiles = ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/src/**/*.test.ts'];

/**
 * Run before every test file: kills, at the file's end, the process trees (gateways) it started and left
 * running (packages/server/src/testing/owned-process-trees.ts).
 */
export const unitTestSetupFiles = ['packages/server/src/testing/owned-process-trees.setup.ts'];

/**
 * What makes a file unfit to share a worker: it replaces a module (`vi.mock`: in a shared worker the
 * real module is already loaded, so the mock would not take) or changes the worker's globals
 * (`vi.stubGlobal`, `vi.stubEnv`, an assignment to `globalThis` or `process.env`: the files after it
 * would see a fake fetch, storage or setting).
 */
export const changesWorkerState =
  /\bvi\.(?:mock|stubGlobal|stubEnv)\(|\bglobalThis\.\w+\s*=[^=]|\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=[^=]|\bdelete process\.env\b/;

/**
 * The files that do (see changesWorkerState): each runs in a fresh worker. The suite runs the others
 * one after another in shared workers (one module graph per worker). scripts/unit-test-files.test.ts
 * fails when this list and the files disagree.
 */
export const filesNeedingFreshWorker = [
  'packages/server/src/entry/api/session/login-limits.test.ts',
  'packages/web/src/features/settings/lib/save-changed-options.test.ts',
  'packages/web/src/lib/api-client.test.ts',
  'packages/web/src/lib/list-dialect.test.ts',
];

/**
 * The files that take longest, longest first: each starts gateway processes (a primary and its
 * workers) and drives them under load, 40 to 85 s each on the quiet 2-core CI machine. The suite
 * starts them before the others (scripts/lib/slowest-first-sequencer.ts): vitest would otherwise
 * order a fresh clone's files by size, and these, small files, started last and ran on alone while
 * the other workers had nothing left to do.
 */
export const slowestUnitTestFiles = [
  'packages/server/src/domain/cluster/drain.test.ts',
  'packages/server/src/core/platform/database-outage.test.ts',
  'packages/server/src/domain/cluster/console-writes-in-force.test.ts',
  'packages/server/src/domain/cluster/workers.test.ts',
  'packages/server/src/domain/cluster/worker-killed-mid-drain.test.ts',
  'packages/server/src/main.test.ts',
  'packages/server/src/domain/billing/kill-nine.test.ts',
  'packages/server/src/domain/cluster/bounded-caches.test.ts',
  'packages/server/src/entry/relay/response-cache/response-cache.workers.test.ts',
  'packages/server/src/entry/relay/pipeline/channel-request-shaping/channel-request-shaping.workers.test.ts',
  'packages/server/src/entry/relay/conformance/native/gemini-array-workers.test.ts',
];
