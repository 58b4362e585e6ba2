import { describe, expect, it } from 'vitest';
import { medianTurn, perProcessRows, treeMicrosPerRequest, type TreeTurn } from './tree-turns.ts';

const turn = (completed: number, ...cpu: number[]): TreeTurn => ({
  completed,
  failed: 0,
  seconds: 1,
  processes: cpu.map((cpuMicros, index) => ({ role: index === 0 ? 'primary' : `worker ${index}`, cpuMicros })),
});

describe('tree turns', () => {
  it('adds every process of the tree up per answered request', () => {
    expect(treeMicrosPerRequest(turn(100, 1_000, 10_000, 9_000))).toBe(200);
  });

  it('keeps the turn whose tree CPU per request is the median', () => {
    const turns = [turn(100, 0, 30_000), turn(100, 0, 10_000), turn(100, 0, 20_000)];
    expect(treeMicrosPerRequest(medianTurn(turns))).toBe(200);
  });

  it('gives one line per process and the tree line only for a tree', () => {
    expect(perProcessRows(turn(10, 500, 1_000, 1_500)).lines).toEqual([
      { role: 'primary', microsPerRequest: 50 },
      { role: 'worker 1', microsPerRequest: 100 },
      { role: 'worker 2', microsPerRequest: 150 },
      { role: 'tree', microsPerRequest: 300 },
    ]);
    expect(perProcessRows(turn(10, 2_000)).lines).toEqual([{ role: 'primary', microsPerRequest: 200 }]);
  });

  it('gives context switches per request when the turn counted them, the tree adding them up', () => {
    const counted: TreeTurn = {
      completed: 100,
      failed: 0,
      seconds: 1,
      processes: [
        { role: 'primary', cpuMicros: 1_000, switches: 50 },
        { role: 'worker 1', cpuMicros: 10_000, switches: 80 },
      ],
    };
    expect(perProcessRows(counted).lines.map((line) => line.switchesPerRequest)).toEqual([0.5, 0.8, 1.3]);
  });
});
