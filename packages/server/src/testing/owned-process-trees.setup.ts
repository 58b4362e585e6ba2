import { afterAll } from 'vitest';
import { killOwnedProcessTrees } from './owned-process-trees.ts';

// A setup file of both suites (vitest.config.ts, e2e/vitest.config.ts), run before every test file: after
// the file's own afterAll hooks, whatever process tree it started and did not stop (a test that timed
// out never reaches its finally) is killed, so no tree outlives its file.
afterAll(killOwnedProcessTrees);
