import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runSideBySide } from './side-by-side.ts';

const node = process.execPath;
const script = (code: string) => ['-e', code];

describe('steps run side by side', () => {
  it('runs every step, a failed one included, never more at once than asked', async () => {
    const printed = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      // Each step marks itself running in a folder, looks how many are, then unmarks: the most it
      // ever sees is how many ran at once.
      const folder = mkdtempSync(join(tmpdir(), 'side-by-side-'));
      const steps = ['one', 'two', 'three', 'four'].map((title, index) => ({
        title,
        command: node,
        args: script(
          `const fs = require('node:fs'); const mark = ${JSON.stringify(join(folder, title))}; fs.writeFileSync(mark, '');` +
            `setTimeout(() => { console.log('${title} saw ' + fs.readdirSync(${JSON.stringify(folder)}).length); fs.rmSync(mark); process.exit(${index === 2 ? 3 : 0}); }, 300)`,
        ),
      }));
      const results = await runSideBySide(steps, 2, process.cwd());
      rmSync(folder, { recursive: true, force: true });
      expect(results.map((result) => [result.step.title, result.ok]).sort()).toEqual([
        ['four', true],
        ['one', true],
        ['three', false],
        ['two', true],
      ]);
      const output = printed.mock.calls.map(([chunk]) => String(chunk)).join('');
      const seen = [...output.matchAll(/(one|two|three|four) saw (\d+)/g)];
      expect(seen.map(([, title]) => title).sort()).toEqual(['four', 'one', 'three', 'two']);
      expect(Math.max(...seen.map(([, , count]) => Number(count)))).toBeLessThanOrEqual(2);
      expect(logged.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('✗'))).toEqual([expect.stringContaining('✗ three')]);
    } finally {
      printed.mockRestore();
      logged.mockRestore();
    }
  });

  it('reports a command that cannot start as failed', async () => {
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const printed = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const [result] = await runSideBySide([{ title: 'missing', command: '/nonexistent/command', args: [] }], 2, process.cwd());
      expect(result?.ok).toBe(false);
    } finally {
      printed.mockRestore();
      logged.mockRestore();
    }
  });
});
