/**
 * `npm test`: the whole suite, in order of cost. Lint, formatting, type checks, the locale check and the
 * console build first (two at a time, about a minute), then every unit and integration test file on
 * SQLite plus PostgreSQL, MySQL and Redis (found by the suite's global setup,
 * scripts/lib/test-backends.ts, which under CI refuses to run without one: a silently skipped backend
 * would let a dialect bug land), then the browser suite. With
 * TEST_SUITES_TOGETHER=1 and two cores or more the two suites run at the same time (the browser
 * suite's output is held back and printed when the unit suite is done): faster, but on two cores the
 * browser tests then time out now and then.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runSideBySide, type Step } from './lib/side-by-side.ts';

const root = new URL('..', import.meta.url).pathname;
// A fresh Debian machine gets Chromium, the fonts and the three servers installed and started (a no-op
// where they are); elsewhere the script only says what is missing and the suites that need it skip.
const prepared = spawnSync('bash', [join(root, 'scripts', 'prepare-test-machine.sh')], { cwd: root, stdio: 'inherit', env: process.env });
if (prepared.status !== 0) {
  console.error('✗ Preparing the machine for the tests failed (scripts/prepare-test-machine.sh)');
  if (process.env.CI) process.exit(prepared.status ?? 1);
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(0)} s`;
const node = process.execPath;
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
// TypeScript 7, the native compiler (package alias typescript7): the same checks in a fraction of the
// time (user CPU 16 s against 48 s for the server's project). The `typescript` package stays at 6 for
// the tools that need its JavaScript API (typescript-eslint's parser, schema-agreement.test.ts).
const typeCheck = join(root, 'node_modules', 'typescript7', 'bin', 'tsc');

// The checks and the console build need nothing from each other: they run two at a time (each is
// mostly one core's work), the longest first. Measured alone on a busy machine, user CPU: lint 52 s,
// Prettier 40 s, the type checks 25 s together, the build 4 s.
const checks: Step[] = [
  { title: 'Lint', command: bin('eslint'), args: ['.', '--max-warnings=0'] },
  { title: 'Formatting (npm run format fixes it)', command: bin('prettier'), args: ['--check', '.'] },
  { title: 'Type check (server, contracts, tests, scripts)', command: typeCheck, args: ['-p', 'tsconfig.json'] },
  { title: 'Type check (web)', command: typeCheck, args: ['-p', 'packages/web/tsconfig.json'] },
  { title: 'Build the console', command: 'npm', args: ['run', 'build', '-w', '@switchboard/web'] },
  { title: 'Type check (browser tests: page scripts see the DOM)', command: typeCheck, args: ['-p', 'e2e/tsconfig.json'] },
  { title: 'Locale files complete in zh and en', command: node, args: ['scripts/check-locales.ts'] },
];
console.log(`\n▶ Checks: ${checks.map((check) => check.title).join(', ')}`);
const checksStarted = performance.now();
const checked = await runSideBySide(checks, Math.min(2, availableParallelism()), root);
const failedChecks = checked.filter((result) => !result.ok);
if (failedChecks.length > 0) {
  console.error(`\n✗ Failed: ${failedChecks.map((result) => result.step.title).join(', ')}`);
  process.exit(1);
}
console.log(`\n✓ Checks done in ${seconds(checksStarted)}`);

// Both runs write a JSON report so the closing line counts every test, the browser suite's included.
const reportPath = join(root, 'test-artifacts', 'vitest-report.json');
const e2eReportPath = join(root, 'test-artifacts', 'vitest-e2e-report.json');
const jsonReporter = (path: string) => ['--reporter=default', '--reporter=json', `--outputFile.json=${path}`];
const e2eOutputPath = join(root, 'test-artifacts', 'browser-suite-output.txt');
rmSync(reportPath, { force: true });
rmSync(e2eReportPath, { force: true });
mkdirSync(join(root, 'test-artifacts'), { recursive: true });

const hasBrowserSuite = existsSync(join(root, 'e2e', 'vitest.config.ts'));
// vitest directly (what `npm run test:e2e` runs): npm would take the reporter flags as its own.
const browserSuite = ['run', '--config', 'vitest.config.ts', ...jsonReporter(e2eReportPath)];

/** The browser suite in the background, its output into a file; resolves to its exit status. */
function startBrowserSuite(): Promise<number> {
  const output = openSync(e2eOutputPath, 'w');
  const child = spawn(bin('vitest'), browserSuite, { cwd: join(root, 'e2e'), stdio: ['ignore', output, output], env: process.env });
  closeSync(output);
  return new Promise((resolve) => {
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

// Side by side only when asked (TEST_SUITES_TOGETHER=1): on two cores the browser suite then met a loaded
// machine and two of three full runs lost one browser test to a timeout; one after the other it held.
const alongside = hasBrowserSuite && availableParallelism() >= 2 && process.env.TEST_SUITES_TOGETHER === '1' ? startBrowserSuite() : undefined;
if (alongside) console.log(`\n▶ Browser tests (Chromium) started alongside; their output follows the unit tests' (${e2eOutputPath})`);
console.log('\n▶ Unit and integration tests');
const unitStarted = performance.now();
const unit = spawnSync(bin('vitest'), ['run', ...jsonReporter(reportPath)], { cwd: root, stdio: 'inherit', env: process.env });
console.log(`\n${unit.status === 0 ? '✓' : '✗'} Unit and integration tests: ${seconds(unitStarted)}`);

let e2eStatus = 0;
if (alongside) {
  console.log('\n▶ Browser tests (Chromium)');
  e2eStatus = await alongside;
  process.stdout.write(readFileSync(e2eOutputPath));
} else if (unit.status === 0 && hasBrowserSuite) {
  console.log('\n▶ Browser tests (Chromium)');
  const browserStarted = performance.now();
  e2eStatus = spawnSync(bin('vitest'), browserSuite, { cwd: join(root, 'e2e'), stdio: 'inherit', env: process.env }).status ?? 1;
  console.log(`\n${e2eStatus === 0 ? '✓' : '✗'} Browser tests: ${seconds(browserStarted)}`);
}

interface VitestCounts {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}
const reports = [reportPath, e2eReportPath].filter((path) => existsSync(path)).map((path) => JSON.parse(readFileSync(path, 'utf8')) as VitestCounts);
if (reports.length > 0) {
  const sum = (pick: (report: VitestCounts) => number) => reports.reduce((total, report) => total + pick(report), 0);
  const failed = sum((r) => r.numFailedTests) + (e2eStatus !== 0 && !existsSync(e2eReportPath) ? 1 : 0);
  console.log(`\n${sum((r) => r.numPassedTests)} passed, ${failed} failed, ${sum((r) => r.numPendingTests + r.numTodoTests)} skipped`);
}
process.exit(unit.status !== 0 ? (unit.status ?? 1) : e2eStatus);
