// `npm run bench` on a fresh clone: plain JavaScript so it runs on whatever Node npm has. Installs the
// workspace (and with it the pinned Node 24) when that has not been done, makes sure the local
// PostgreSQL the benchmark measures is running (scripts/prepare-test-machine.sh, a no-op when it is),
// then runs the harness on Node 24 with the arguments given after `--`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
};

const installed = ['node_modules/.bin/node', 'node_modules/autocannon', 'node_modules/undici'].every((path) => existsSync(join(root, path)));
if (!installed) {
  console.log('Installing the workspace (npm ci)…');
  if (run('npm', ['ci', '--no-audit', '--no-fund']) !== 0) process.exit(1);
}
if (run('bash', [join(root, 'scripts', 'prepare-test-machine.sh')]) !== 0) console.warn('Could not prepare PostgreSQL; its rows will say why.');
process.exit(run('npm', ['run', 'bench', '-w', '@switchboard/bench', '--', ...process.argv.slice(2)]));
