import { describe, expect, it } from 'vitest';
import { LruMap } from './lru-map.ts';

describe('LruMap', () => {
  it('never holds more than its capacity, and names each entry it drops', () => {
    const evicted = new Set<number>();
    let largest = 0;
    const map = new LruMap<number, string>(100, (key) => evicted.add(key));
    for (let key = 0; key < 10_000; key += 1) {
      map.set(key, `value ${key}`);
      largest = Math.max(largest, map.size);
    }
    expect(largest).toBeLessThanOrEqual(100);
    expect(map.size).toBeGreaterThanOrEqual(50);
    expect(evicted.size + map.size).toBe(10_000);
    for (const key of map.keys()) expect(evicted.has(key)).toBe(false);
    // The newest entries are the ones kept.
    expect(Math.min(...map.keys())).toBeGreaterThanOrEqual(9_900);
  });

  it('keeps an entry used once per generation, however many new entries come, and drops the unused ones', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(4, (key) => evicted.push(key));
    map.set('used', 0);
    for (let index = 0; index < 100; index += 1) {
      map.set(`new ${index}`, index);
      expect(map.get('used')).toBe(0);
    }
    expect(map.peek('used')).toBe(0);
    expect(evicted).not.toContain('used');
    expect(evicted).toHaveLength(100 + 1 - map.size);
  });

  it('does not count a peek as a use', () => {
    const evicted: string[] = [];
    const map = new LruMap<string, number>(4, (key) => evicted.push(key));
    map.set('peeked', 0);
    for (let index = 0; index < 4; index += 1) {
      map.set(`new ${index}`, index);
      expect(map.peek('peeked')).toBe(evicted.includes('peeked') ? undefined : 0);
    }
    expect(evicted).toContain('peeked');
  });

  it('replaces a value in place and forgets a deleted key', () => {
    const map = new LruMap<string, number>(4);
    map.set('a', 1);
    map.set('a', 2);
    expect(map.size).toBe(1);
    expect(map.get('a')).toBe(2);
    expect(map.delete('a')).toBe(true);
    expect(map.has('a')).toBe(false);
    expect(map.size).toBe(0);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruMap(0)).toThrow(/positive integer/);
    expect(() => new LruMap(1.5)).toThrow(/positive integer/);
  });

  it('drops at most two entries per new entry, never a whole generation at once', () => {
    let evicted = 0;
    const map = new LruMap<number, number>(1_000, () => (evicted += 1));
    for (let key = 0; key < 10_000; key += 1) {
      const before = evicted;
      map.set(key, key);
      expect(evicted - before).toBeLessThanOrEqual(2);
    }
  });

  it('accounts for every key under mixed use: held, dropped (named once) or deleted, never more than the capacity', () => {
    const dropped = new Map<number, number>();
    const map = new LruMap<number, number>(37, (key) => dropped.set(key, (dropped.get(key) ?? 0) + 1));
    const deleted = new Set<number>();
    const everSet = new Set<number>();
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let step = 0; step < 20_000; step += 1) {
      const key = Math.floor(random() * 200);
      const choice = random();
      if (choice < 0.5) map.get(key);
      else if (choice < 0.95) {
        map.set(key, step);
        everSet.add(key);
        deleted.delete(key);
        dropped.delete(key);
      } else if (map.delete(key)) deleted.add(key);
      expect(map.size).toBeLessThanOrEqual(37);
    }
    for (const count of dropped.values()) expect(count).toBe(1);
    for (const key of map.keys()) {
      expect(dropped.has(key)).toBe(false);
      expect(deleted.has(key)).toBe(false);
    }
    expect(new Set(map.keys()).size).toBe(map.size);
    for (const key of everSet) expect(map.has(key) || dropped.has(key) || deleted.has(key)).toBe(true);
  });
});
