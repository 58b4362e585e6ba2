import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isRunning } from './process-tree.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const tree = fileURLToPath(new URL('./abandoned-tree/tree.ts', import.meta.url));

/** Runs `args` with this Node, in an environment without this vitest's own variables; resolves with its exit code and output. */
function run(args: string[], env: Record<string, string> = {}): { exited: Promise<number | null>; output: () => string; pid: number } {
  const own = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_ENV' && name !== 'TEST'));
  const child = spawn(process.execPath, args, { cwd: repoRoot, env: { ...own, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { exited: new Promise((resolve) => child.on('exit', resolve)), output: () => text, pid: child.pid! };
}

describe('the process trees the test harness starts', () => {
  it('are killed when the test file that started one ends, though its test timed out and never stopped it', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'sb-abandoned-tree-'));
    const pidsFile = join(folder, 'pids');
    try {
      const vitest = run(
        [join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run', '--config', fileURLToPath(new URL('./abandoned-tree/vitest.config.ts', import.meta.url))],
        { ABANDONED_TREE_PIDS: pidsFile },
      );
      expect(await vitest.exited, vitest.output()).toBe(1);
      expect(vitest.output()).toContain('Test timed out');
      const pids = readFileSync(pidsFile, 'utf8').split(' ').map(Number);
      expect(pids).toHaveLength(2);
      await expect.poll(() => pids.filter(isRunning), { timeout: 5_000 }).toEqual([]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 90_000);

  it('are killed when the process that started one is killed (SIGKILL: no exit handler runs)', async () => {
    const harness = run([
      '--input-type=module',
      '-e',
      `
      import { startMainProcess } from ${JSON.stringify(new URL('./main-process.ts', import.meta.url).href)};
      const started = startMainProcess({}, ${JSON.stringify(tmpdir())}, ${JSON.stringify(tree)});
      const waiting = setInterval(() => {
        const ids = /tree \\d+ \\d+/.exec(started.output());
        if (ids) { console.log(ids[0]); clearInterval(waiting); }
      }, 50);
      `,
    ]);
    await expect.poll(() => /tree \d+ \d+/.exec(harness.output())?.[0], { timeout: 20_000 }).toBeDefined();
    const pids = /tree (\d+) (\d+)/.exec(harness.output())!.slice(1).map(Number);
    expect(pids.filter(isRunning)).toEqual(pids);
    process.kill(harness.pid, 'SIGKILL');
    await harness.exited;
    await expect.poll(() => pids.filter(isRunning), { timeout: 5_000 }).toEqual([]);
  }, 60_000);
});
