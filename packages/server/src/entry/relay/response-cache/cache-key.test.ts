import { describe, expect, it } from 'vitest';
import { canonicalJson } from './cache-key.ts';

/**
 * The canonical text as its definition reads: keys sorted by code unit, no spaces, the identifying
 * fields left out at the top only. Written plainly, to check the fast path against.
 */
function reference(value: unknown, top = true): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : reference(item, false))).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const object = value as Record<string, unknown>;
  const members = Object.keys(object)
    .sort()
    .filter((key) => object[key] !== undefined && !(top && ['user', 'safety_identifier', 'prompt_cache_key', 'metadata'].includes(key)))
    .map((key) => `${JSON.stringify(key)}:${reference(object[key], false)}`);
  return `{${members.join(',')}}`;
}

/** A small seeded generator (mulberry32), so a failure names a body that can be made again. */
function randomSource(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// Keys a request may carry, with those that order themselves (array indexes), a prototype's name and escapes.
const keyPool = ['model', 'messages', 'role', 'content', 'user', 'metadata', 'temperature', 'a', 'B', 'é', 'k"ey', '50256', '7', '1a', '__proto__', ''];

function randomValue(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.35) return [null, true, false, 0, -1.5, 1e21, 'hi', '\u2028', 'line\nbreak'][Math.floor(next() * 9)];
  if (pick < 0.55) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let count = Math.floor(next() * 5); count > 0; count -= 1) {
    const key = keyPool[Math.floor(next() * keyPool.length)] as string;
    Object.defineProperty(object, key, { value: randomValue(next, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return object;
}

describe('canonicalJson', () => {
  it('sorts the keys at every depth and leaves the identifying fields out at the top only', () => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi', metadata: 1 }], user: 'u', metadata: { a: 1 }, temperature: 0 };
    expect(canonicalJson(body)).toBe('{"messages":[{"content":"hi","metadata":1,"role":"user"}],"model":"m","temperature":0}');
    // The body itself is never changed.
    expect(Object.keys(body)).toEqual(['model', 'messages', 'user', 'metadata', 'temperature']);
  });

  it('orders keys that read as array indexes as text, as the builder does', () => {
    expect(canonicalJson({ logit_bias: { '50256': -100, '7': 5, '1000': 1 }, model: 'm' })).toBe('{"logit_bias":{"1000":1,"50256":-100,"7":5},"model":"m"}');
  });

  it('keeps a __proto__ member of a parsed body as a member', () => {
    const body = JSON.parse('{"b":1,"__proto__":{"x":1},"a":2}') as Record<string, unknown>;
    expect(canonicalJson(body)).toBe('{"__proto__":{"x":1},"a":2,"b":1}');
  });

  it('gives the reference text for a thousand varied bodies', () => {
    const next = randomSource(41);
    for (let round = 0; round < 1_000; round += 1) {
      const body = randomValue(next, 0);
      const asObject = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : { value: body };
      expect(canonicalJson(asObject), JSON.stringify(asObject)).toBe(reference(asObject));
    }
  });
});
