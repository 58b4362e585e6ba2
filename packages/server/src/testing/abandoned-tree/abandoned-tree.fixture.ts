import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { startMainProcess } from '../main-process.ts';

// Run by owned-process-trees.test.ts in a vitest of its own: a test that starts a process tree as the
// gateway tests do and times out without stopping it. It writes the tree's process ids for the caller.
it('starts a process tree and never stops it', async () => {
  const started = startMainProcess({}, tmpdir(), fileURLToPath(new URL('./tree.ts', import.meta.url)));
  await expect.poll(() => /tree \d+ \d+/.exec(started.output())?.[0], { timeout: 10_000 }).toBeDefined();
  writeFileSync(process.env.ABANDONED_TREE_PIDS ?? '', /tree (\d+ \d+)/.exec(started.output())![1]!);
  await new Promise(() => undefined);
}, 12_000);
