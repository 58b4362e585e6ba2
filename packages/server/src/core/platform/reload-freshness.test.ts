import { describe, expect, it } from 'vitest';
import { ReloadFreshness } from './reload-freshness.ts';

describe('ReloadFreshness', () => {
  it('keeps no mark once no read may ask about it, however many records were re-read', () => {
    const freshness = new ReloadFreshness();
    for (let id = 1; id <= 10_000; id += 1) {
      const read = freshness.rereading(id);
      expect(freshness.isNewestReread(id, read)).toBe(true);
      freshness.rereadDone(id);
    }
    expect(freshness.size).toBe(0);
  });

  it('tells a wide read of the re-reads that started after it, until it is done', () => {
    const freshness = new ReloadFreshness();
    const since = freshness.wideReadStarting();
    freshness.rereading(7);
    freshness.rereadDone(7);
    freshness.changed(8);
    expect(freshness.isFresher(7, since)).toBe(true);
    expect(freshness.isFresher(8, since)).toBe(true);
    expect(freshness.isFresher(9, since)).toBe(false);
    // A wide read starting now has its own start: what came before is not fresher for it.
    const later = freshness.wideReadStarting();
    expect(freshness.isFresher(7, later)).toBe(false);
    freshness.wideReadDone(since);
    freshness.wideReadDone(later);
    expect(freshness.size).toBe(0);
  });

  it('keeps the mark of a re-read in flight, so an older re-read of the same record knows it lost', () => {
    const freshness = new ReloadFreshness();
    const older = freshness.rereading(3);
    const newer = freshness.rereading(3);
    const since = freshness.wideReadStarting();
    freshness.wideReadDone(since);
    freshness.rereadDone(3); // the newer one ends first
    expect(freshness.isNewestReread(3, older)).toBe(false);
    expect(freshness.isNewestReread(3, newer)).toBe(true);
    freshness.rereadDone(3);
    expect(freshness.size).toBe(0);
  });

  it('marks a record changed without reading it only while a wide read may have read it before', () => {
    const freshness = new ReloadFreshness();
    freshness.changed(5);
    expect(freshness.size).toBe(0);
  });
});
