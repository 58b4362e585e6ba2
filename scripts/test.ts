/**
 * `npm test`: the whole suite, in order of cost. Locale check, lint and type checks first (seconds),
 * then every unit and integration test file on SQLite plus PostgreSQL, MySQL and Redis (found by the
 * suite's global setup, scripts/lib/test-backends.ts, which under CI refuses to run without one: a
 * silently skipped backend would let a dialect bug land), then the browser suite. With
 * TEST_SUITES_TOGETHER=1 and two cores or more the two suites run at the same time (the browser
 * suite's output is held back and printed when the unit suite is done): faster, but on two cores the
 * browser tests then time out now and then.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// A fresh Debian machine gets Chromium, the fonts and the three servers installed and started (a no-op
// where they are); elsewhere the script only says what is missing and the suites that need it skip.
const prepared = spawnSync('bash', [join(root, 'scripts', 'prepare-test-machine.sh')], { cwd: root, stdio: 'inherit', env: process.env });
if (prepared.status !== 0) {
  console.error('✗ Preparing the machine for the tests failed (scripts/prepare-test-machine.sh)');
  if (process.env.CI) process.exit(prepared.status ?? 1);
}

function step(title: string, command: string, args: string[]): void {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(`✗ ${title} failed`);
    process.exit(result.status ?? 1);
  }
}

const node = process.execPath;
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

step('Locale files complete in zh and en', node, ['scripts/check-locales.ts']);
step('Lint', bin('eslint'), ['.', '--max-warnings=0']);
step('Formatting (npm run format fixes it)', bin('prettier'), ['--check', '.']);
// TypeScript 7, the native compiler (package alias typescript7): the same checks in a fraction of the
// time (user CPU 16 s against 48 s for the server's project). The `typescript` package stays at 6 for
// the tools that need its JavaScript API (typescript-eslint's parser, schema-agreement.test.ts).
const typeCheck = join(root, 'node_modules', 'typescript7', 'bin', 'tsc');
step('Type check (server, contracts, tests, scripts)', typeCheck, ['-p', 'tsconfig.json']);
step('Type check (web)', typeCheck, ['-p', 'packages/web/tsconfig.json']);
step('Type check (browser tests: page scripts see the DOM)', typeCheck, ['-p', 'e2e/tsconfig.json']);
step('Build the console', 'npm', ['run', 'build', '-w', '@switchboard/web']);

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
const unit = spawnSync(bin('vitest'), ['run', ...jsonReporter(reportPath)], { cwd: root, stdio: 'inherit', env: process.env });

let e2eStatus = 0;
if (alongside) {
  console.log('\n▶ Browser tests (Chromium)');
  e2eStatus = await alongside;
  process.stdout.write(readFileSync(e2eOutputPath));
} else if (unit.status === 0 && hasBrowserSuite) {
  console.log('\n▶ Browser tests (Chromium)');
  e2eStatus = spawnSync(bin('vitest'), browserSuite, { cwd: join(root, 'e2e'), stdio: 'inherit', env: process.env }).status ?? 1;
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
