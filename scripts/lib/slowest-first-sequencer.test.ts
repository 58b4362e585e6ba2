import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { slowestFirst } from './slowest-first-sequencer.ts';
import { slowestUnitTestFiles } from './unit-test-files.ts';

const root = new URL('../..', import.meta.url).pathname;

describe('the slowest-first order of the unit suite', () => {
  it('puts the named files first, in their order, and keeps the order of the others', () => {
    const files = ['a.test.ts', 'slow-2.test.ts', 'b.test.ts', 'slow-1.test.ts', 'c.test.ts'];
    expect(slowestFirst(files, (file) => file, ['slow-1.test.ts', 'slow-2.test.ts', 'gone.test.ts'])).toEqual([
      'slow-1.test.ts',
      'slow-2.test.ts',
      'a.test.ts',
      'b.test.ts',
      'c.test.ts',
    ]);
  });

  it('names files that exist, each once', () => {
    expect(slowestUnitTestFiles.filter((path) => !existsSync(`${root}/${path}`))).toEqual([]);
    expect(new Set(slowestUnitTestFiles).size).toBe(slowestUnitTestFiles.length);
  });
});
