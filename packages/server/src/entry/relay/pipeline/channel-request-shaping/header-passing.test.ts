import { describe, expect, it } from 'vitest';
import { copyHeader, headerValueOf, readHeaderNames, type HeaderEdits, type HeaderSources } from './header-passing.ts';

const sources: HeaderSources = {
  channel: { 'x-channel': 'own' },
  caller: { authorization: 'Bearer caller', session_id: ' sess-1 ', 'x-multi': ['a', 'b'] },
};

describe('headers the operations read', () => {
  it("looks at the channel's own headers first, then the caller's", () => {
    const edits: HeaderEdits = new Map([['x-set', 'by-op']]);
    expect(headerValueOf('x-set', edits, sources)).toBe('by-op');
    expect(headerValueOf('x-channel', edits, sources)).toBe('own');
    expect(headerValueOf('session_id', edits, sources)).toBe('sess-1');
    expect(headerValueOf('x-multi', edits, sources)).toBe('a, b');
    expect(headerValueOf('x-none', edits, sources)).toBeUndefined();
  });

  it("a header an operation removed from the channel's set is read from the caller", () => {
    const edits: HeaderEdits = new Map([['authorization', undefined]]);
    expect(headerValueOf('authorization', edits, sources)).toBe('Bearer caller');
  });

  it('copies a header; a missing source is skipped; keep_origin keeps what the channel sends', () => {
    const edits: HeaderEdits = new Map();
    expect(copyHeader('authorization', 'x-upstream-auth', false, edits, sources)).toBe(true);
    expect(edits.get('x-upstream-auth')).toBe('Bearer caller');
    expect(copyHeader('x-missing', 'x-target', false, edits, sources)).toBe(false);
    expect(edits.has('x-target')).toBe(false);
    expect(copyHeader('session_id', 'x-channel', true, edits, sources)).toBe(false);
    expect(edits.has('x-channel')).toBe(false);
  });
});

describe('pass_headers names', () => {
  it('reads a list, a comma-separated text, a JSON text or an object of lists', () => {
    expect(readHeaderNames(['X-Codex-Beta-Features', 'Session_id'])).toEqual(['x-codex-beta-features', 'session_id']);
    expect(readHeaderNames('a, b,,a')).toEqual(['a', 'b']);
    expect(readHeaderNames('["x-a","x-b"]')).toEqual(['x-a', 'x-b']);
    expect(readHeaderNames({ headers: ['x-a'], names: 'x-b' })).toEqual(['x-a', 'x-b']);
  });

  it('refuses no names, a name that is not a header name, or a value of another kind', () => {
    expect(readHeaderNames('')).toBeUndefined();
    expect(readHeaderNames([])).toBeUndefined();
    expect(readHeaderNames(['bad name'])).toBeUndefined();
    expect(readHeaderNames(5)).toBeUndefined();
    expect(readHeaderNames(undefined)).toBeUndefined();
  });
});
