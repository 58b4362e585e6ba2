import { readFileSync } from 'node:fs';
import { glob } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { filesNeedingOwnModules, unitTestFiles } from './lib/unit-test-files.ts';

const root = new URL('..', import.meta.url).pathname;

async function filesMatching(patterns: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for await (const path of glob([...patterns], { cwd: root, exclude: (name) => name === 'node_modules' })) found.push(path);
  return found.sort();
}

describe("the unit suite's shared workers", () => {
  it('give every file that mocks a module a module graph of its own', async () => {
    const mocking = (await filesMatching(unitTestFiles)).filter((path) => /\bvi\.mock\(/.test(readFileSync(`${root}/${path}`, 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking).toEqual([...filesNeedingOwnModules].sort());
  });
});
