import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The browser suite: every file starts its own server (fresh SQLite database) and opens its own browser
 * contexts, so files run in parallel. The console is built once beforehand when its sources changed.
 */
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['tests/**/*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    // Kills, at a file's end, the server it started and left running (a test that timed out never stops it).
    setupFiles: ['../packages/server/src/testing/owned-process-trees.setup.ts'],
    pool: 'forks',
    fileParallelism: true,
    // A worker runs file after file in one process: playwright-core and the support modules are imported
    // once per worker, not once per file, and the worker's one Chromium (support/browser.ts, workerBrowser)
    // serves all its files. A file keeps nothing in a module for the next: it starts its own server and
    // fakes and closes them, and its browser contexts, in afterAll.
    isolate: false,
    // Two files at once: a file spends most of its time waiting on its server and its browser, so two halve
    // the suite on the 2-core CI machine (vitest's default there is one, cores - 1).
    maxWorkers: 2,
    // A browser step can lose a click or a frame on a loaded two-core machine; under CI a failed test is run
    // once more, and the run lists it as retried (a test that fails twice fails the run).
    retry: process.env.CI ? 1 : 0,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // expect.poll waits 1 s by default: too short for a page on a loaded two-core machine (CI runs
    // two browser files at once), where a form can take longer to fill from its request.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default'],
  },
});
