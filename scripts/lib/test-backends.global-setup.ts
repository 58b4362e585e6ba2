import { dropTemplates, newTemplateRun, templateRunVariable } from '../../packages/server/src/testing/migrated-templates.ts';
import { missingBackendsError, resolveTestBackends } from './test-backends.ts';

/**
 * Vitest global setup of the unit and integration suites: however the tests are started (`npm test`,
 * `npm run test:unit`, `vitest run <file>`), the backends are found the same way, and under CI a
 * missing one stops the run before any test, instead of its suites quietly running on SQLite only.
 * It also names this run's migrated database templates (built by the first file that needs each,
 * see packages/server/src/testing/migrated-templates.ts) and drops them when the run ends.
 * Workers are forked after this runs, so the variables set here reach every test file.
 */
export default async function setup(): Promise<() => Promise<void>> {
  // Every project of the suite (vitest.config.ts) runs its global setup, all in this one process before
  // any worker starts: the first finds the backends and names the templates, the others share them.
  const run = globalThis as { switchboardTestSetup?: boolean };
  if (run.switchboardTestSetup) return async () => {};
  run.switchboardTestSetup = true;
  const { present, missing } = await resolveTestBackends(process.env);
  const refusal = missingBackendsError(missing, Boolean(process.env.CI));
  if (refusal) throw new Error(refusal);
  if (missing.length > 0) console.log(`Skipping suites for: ${missing.join(', ')}. Set their TEST_*_URL variables to run them (see README).`);
  console.log(`Database suites run on: SQLite${present.map((name) => `, ${name}`).join('')}`);
  process.env[templateRunVariable] = newTemplateRun();
  return () => dropTemplates(process.env);
}
