import { describe, expect, it } from 'vitest';
import { expandWildcardPath, hasWildcard } from './wildcard-paths.ts';

describe('wildcard paths', () => {
  it('tells a wildcard path from a plain one', () => {
    expect(hasWildcard('tools.*.name')).toBe(true);
    expect(hasWildcard('tools.0.name')).toBe(false);
    expect(hasWildcard('a*b')).toBe(false);
  });

  it('names the field in every item of a list, present or not at the end of the path', () => {
    const body = { tools: [{ custom: { tag: 'A' } }, { custom: {} }, { other: 1 }] };
    expect(expandWildcardPath(body, 'tools.*.custom.tag')).toEqual(['tools.0.custom.tag', 'tools.1.custom.tag']);
  });

  it('walks several wildcards and object keys in sorted order', () => {
    const body = { b: { items: [{ n: 1 }, { n: 2 }] }, a: { items: [{ n: 3 }] }, c: 5 };
    expect(expandWildcardPath(body, '*.items.*.n')).toEqual(['a.items.0.n', 'b.items.0.n', 'b.items.1.n']);
  });

  it('escapes a key holding a dot so the path still names it', () => {
    expect(expandWildcardPath({ m: { 'x.y': { v: 1 } } }, 'm.*.v')).toEqual(['m.x\\.y.v']);
  });

  it('names nothing through a scalar or a missing branch', () => {
    expect(expandWildcardPath({ tools: 3 }, 'tools.*.name')).toEqual([]);
    expect(expandWildcardPath({}, 'tools.*.name')).toEqual([]);
  });
});
