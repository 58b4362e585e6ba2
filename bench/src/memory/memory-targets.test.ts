import { describe, expect, it } from 'vitest';
import { memoryRows, memoryTargets, memoryVerdict, type MemoryFigures } from './memory-targets.ts';

const mebibytes = (count: number) => count * 1024 * 1024;
const met: MemoryFigures = {
  idleRssBytes: mebibytes(190),
  idlePssBytes: mebibytes(120),
  privateBytesPerProcess: {},
  imageRequestsOk: 100,
  imageBodiesBytes: mebibytes(500),
  imagePeakAboveIdleBytes: mebibytes(600),
  afterImagesRssBytes: mebibytes(200),
  imagesBackWithinMs: 5_000,
  burstIncomplete: 0,
  afterBurstRssBytes: mebibytes(210),
  backWithinMs: 12_000,
};

describe('memory targets', () => {
  it('passes a run that meets every target, one row per measured figure', () => {
    expect(memoryVerdict(met)).toEqual([]);
    expect(memoryRows(met).map((row) => row.met)).toEqual([true, true, true, true, true, true]);
  });

  it('names each missed target with its figure', () => {
    const missed = memoryVerdict({
      ...met,
      idleRssBytes: mebibytes(292),
      imagePeakAboveIdleBytes: mebibytes(1100),
      imagesBackWithinMs: undefined,
      backWithinMs: memoryTargets.backWithinMs + 1,
      burstIncomplete: 3,
    });
    expect(missed).toEqual([
      'idle tree RSS: 292 MiB, target ≤ 200 MiB',
      'image requests: peak above idle: 1100 MiB (2.20× the bodies), target ≤ 1000 MiB (2×)',
      'image requests: back within 10 % of the warm level: not within 60 s, target ≤ 30 s',
      '2000 streams: incomplete: 3, target 0',
      '2000 streams: back within 10 % of the level before: 30.0 s, target ≤ 30 s',
    ]);
  });
});
