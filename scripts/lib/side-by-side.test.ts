import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSideBySide } from './side-by-side.ts';

const node = process.execPath;
const script = (code: string) => ['-e', code];

describe('steps run side by side', () => {
  it('runs every step, a failed one included, never more at once than asked', async () => {
    const printed: string[] = [];
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
    const results = await runSideBySide(steps, 2, process.cwd(), (text) => printed.push(text));
    rmSync(folder, { recursive: true, force: true });
    expect(results.map((result) => [result.step.title, result.ok]).sort()).toEqual([
      ['four', true],
      ['one', true],
      ['three', false],
      ['two', true],
    ]);
    const output = printed.join('');
    const seen = [...output.matchAll(/(one|two|three|four) saw (\d+)/g)];
    expect(seen.map(([, title]) => title).sort()).toEqual(['four', 'one', 'three', 'two']);
    expect(Math.max(...seen.map(([, , count]) => Number(count)))).toBeLessThanOrEqual(2);
    expect(printed.filter((text) => text.includes('✗'))).toEqual([expect.stringContaining('✗ three')]);
  });

  it('reports a command that cannot start as failed', async () => {
    const printed: string[] = [];
    const [result] = await runSideBySide([{ title: 'missing', command: '/nonexistent/command', args: [] }], 2, process.cwd(), (text) => printed.push(text));
    expect(result?.ok).toBe(false);
    expect(printed.join('')).toContain('✗ missing');
  });
});
