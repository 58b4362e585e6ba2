import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProcess } from './processes.ts';

describe('startProcess', () => {
  const folder = mkdtempSync(join(tmpdir(), 'bench-processes-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('runs the command under its wrapper, pinned, with the pid of the program the wrapper runs', async () => {
    const logFile = join(folder, 'wrapped.log');
    // `env` stands in for valgrind: a program that runs the command in its own process.
    const started = startProcess({
      name: 'wrapped',
      command: process.execPath,
      args: ['-e', 'console.log(`${process.env.WRAPPED} ${process.pid}`)'],
      wrapper: ['env', 'WRAPPED=yes'],
      cpus: '0',
      logFile,
    });
    const code = await new Promise<number | null>((resolve) => started.child.once('exit', resolve));
    expect(code).toBe(0);
    expect(readFileSync(logFile, 'utf8').trim()).toBe(`yes ${started.pid}`);
  });
});
