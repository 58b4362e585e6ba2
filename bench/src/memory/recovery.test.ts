import { describe, expect, it } from 'vitest';
import { backWithinMs, sampleRecovery, type RecoverySample } from './recovery.ts';

const mebibytes = (count: number) => count * 1024 * 1024;
const samples = (treeMiB: readonly number[]): RecoverySample[] =>
  treeMiB.map((tree, second) => ({ atMs: second * 1000, treeRssBytes: mebibytes(tree), treePssBytes: mebibytes(tree / 2), perProcess: {} }));

describe('back within a tolerance after a burst', () => {
  it('is the first sample from which the tree stays within the tolerance', () => {
    expect(backWithinMs(samples([400, 330, 290, 270, 268, 266]), 'treeRssBytes', mebibytes(250), mebibytes(25))).toBe(3000);
    expect(backWithinMs(samples([400, 330, 290, 270, 268, 266]), 'treePssBytes', mebibytes(125), mebibytes(12.5))).toBe(3000);
  });

  it('does not count a dip under the bound that grows past it again', () => {
    expect(backWithinMs(samples([400, 260, 300, 270, 268]), 'treeRssBytes', mebibytes(250), mebibytes(25))).toBe(3000);
  });

  it('is undefined when the last sample is still above', () => {
    expect(backWithinMs(samples([400, 260, 270, 290]), 'treeRssBytes', mebibytes(250), mebibytes(25))).toBeUndefined();
  });
});

describe('sampling the tree after a burst', () => {
  it('reads this process once a step for the whole window, with its RSS and PSS', async () => {
    const taken = await sampleRecovery(process.pid, 120, 40);
    // At most one sample a step (a loaded machine may make one read outlast several), until the window is over.
    expect(taken.length).toBeGreaterThanOrEqual(1);
    expect(taken.length).toBeLessThanOrEqual(120 / 40 + 1);
    expect(taken.at(-1)!.atMs).toBeGreaterThanOrEqual(120);
    expect(taken.map((sample) => sample.atMs)).toEqual(taken.map((sample) => sample.atMs).sort((a, b) => a - b));
    for (const sample of taken) {
      expect(sample.perProcess[process.pid]!.rssBytes).toBeGreaterThan(0);
      expect(sample.treePssBytes).toBeGreaterThan(0);
      expect(sample.treeRssBytes).toBeGreaterThanOrEqual(sample.perProcess[process.pid]!.rssBytes);
    }
  });
});
