import { readFileSync } from 'node:fs';
import { glob } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { changesWorkerState, filesNeedingFreshWorker, unitTestFiles } from './lib/unit-test-files.ts';

const root = new URL('..', import.meta.url).pathname;

async function filesMatching(patterns: readonly string[]): Promise<string[]> {
  const found: string[] = [];
  for await (const path of glob([...patterns], { cwd: root, exclude: (name) => name === 'node_modules' })) found.push(path);
  return found.sort();
}

describe("the unit suite's shared workers", () => {
  it('give every file that mocks a module or changes globals a fresh worker of its own', async () => {
    const changing = (await filesMatching(unitTestFiles))
      // This file names each kind of change in its own examples below.
      .filter((path) => path !== 'scripts/unit-test-files.test.ts')
      .filter((path) => changesWorkerState.test(readFileSync(`${root}/${path}`, 'utf8')));
    expect(changing.length).toBeGreaterThan(0);
    expect(changing).toEqual([...filesNeedingFreshWorker].sort());
  });

  it('sees each kind of change', () => {
    for (const line of [
      "vi.mock('./x.ts')",
      "vi.stubGlobal('fetch', f)",
      "vi.stubEnv('TZ', 'UTC')",
      'globalThis.localStorage = storage',
      "process.env.TZ = 'UTC'",
      "process.env['REDIS_CONN_STRING'] = url",
      'delete process.env.TZ',
    ])
      expect(changesWorkerState.test(line), line).toBe(true);
    for (const line of ['globalThis.fetch === fetch', "process.env.TZ === 'UTC'", "vi.fn(() => 'mock')", 'const mocked = vi.mocked(f)'])
      expect(changesWorkerState.test(line), line).toBe(false);
  });
});
