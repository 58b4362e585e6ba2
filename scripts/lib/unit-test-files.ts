/** The unit and integration suite's test files (vitest.config.ts), relative to the repository root. */
export const unitTestFiles = ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/src/**/*.test.ts'];

/**
 * Files that replace a module with `vi.mock`. The suite runs files one after another in shared
 * workers (one module graph per worker), where the real module is already loaded when such a file
 * starts and the mock would not take; these run in a fresh module graph each.
 * scripts/unit-test-files.test.ts fails when a file using vi.mock is missing here.
 */
export const filesNeedingOwnModules = [
  'packages/server/src/entry/api/session/login-limits.test.ts',
  'packages/web/src/features/settings/lib/save-changed-options.test.ts',
];
