import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map.ts';

describe('LruMap', () => {
  it('never holds more than its capacity, and names each entry it drops', () => {
    const evicted: number[] = [];
    const map = new LruMap<number, string>(100, (key) => evicted.push(key));
    for (let key = 0; key < 10_000; key += 1) map.set(key, `value ${key}`);
    expect(map.size).toBe(100);
    expect(evicted).toHaveLength(9_900);
    expect(evicted.slice(0, 3)).toEqual([0, 1, 2]);
    expect([...map.keys()][0]).toBe(9_900);
  });

  it('drops the least recently used entry, not the oldest one', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(3, (key) => evicted.push(key));
    map.set('a', 1);
    map.set('b', 2);
    map.set('c', 3);
    expect(map.get('a')).toBe(1);
    map.set('d', 4);
    expect(evicted).toEqual(['b']);
    expect(map.peek('c')).toBe(3);
    map.set('e', 5);
    // peek does not count as a use: c was still the least recently used.
    expect(evicted).toEqual(['b', 'c']);
    expect([...map.keys()]).toEqual(['a', 'd', 'e']);
  });

  it('keeps the order right when the newest key is used again after a deletion', () => {
    const map = new LruMap<string, number>(2);
    map.set('a', 1);
    map.delete('a');
    map.set('b', 2);
    map.set('a', 3);
    expect(map.get('b')).toBe(2);
    map.set('c', 4);
    expect([...map.keys()]).toEqual(['b', 'c']);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruMap(0)).toThrow(/positive integer/);
    expect(() => new LruMap(1.5)).toThrow(/positive integer/);
  });
});
