import { fileURLToPath } from 'node:url';

/**
 * The server bundle the unit suite's gateway processes start from (`npm start` runs the same bundle):
 * built once per run from this checkout by `gateway-bundle.global-setup.ts`, into a folder of its own
 * at the depth of `dist/` (so the console and node_modules resolve as from `dist/`). A process started
 * from it compiles plain JavaScript, not the TypeScript sources: about half the CPU of a start of
 * `WORKERS=2` (primary and two workers), and the suite makes some thirty-five starts.
 */
export const gatewayBundleVariable = 'SWITCHBOARD_TEST_GATEWAY_BUNDLE';

const sourceMain = fileURLToPath(new URL('../main.ts', import.meta.url));

/** The run's bundle folder (`dist-test-run-<run>`, ignored by git like the bundle test's own). */
export function gatewayBundleFolder(run: string): string {
  return fileURLToPath(new URL(`../../dist-test-run-${run}/`, import.meta.url));
}

/** What a test gateway starts: the run's bundle, or the sources when no global setup built one (a file run outside the suite's config). */
export function gatewayEntry(env: Record<string, string | undefined> = process.env): string {
  const folder = env[gatewayBundleVariable];
  return folder ? `${folder}main.mjs` : sourceMain;
}
