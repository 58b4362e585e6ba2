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
    // expect.poll waits 1 s by default: too short for a page on a loaded two-core machine (CI runs
    // every browser file at once), where a form can take longer to fill from its request.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
