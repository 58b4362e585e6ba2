import { defineConfig } from 'vitest/config';

/**
 * Unit and integration tests of every package (the browser suite has its own config under e2e/).
 * Files run in parallel in separate processes; each database-touching file makes its own databases.
 */
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'scripts/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
