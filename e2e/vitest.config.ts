import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The browser suite: every file starts its own server (fresh SQLite database) and its own Chromium,
 * so files run in parallel. The console is built once beforehand when its sources changed.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['tests/**/*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    pool: 'forks',
    fileParallelism: true,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
