/** The unit and integration suite's test files (vitest.config.ts), relative to the repository root. */
export const unitTestFiles = ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/src/**/*.test.ts'];

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
