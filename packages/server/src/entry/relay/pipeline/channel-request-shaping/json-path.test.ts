import { describe, expect, it } from 'vitest';
import { deletePath, getPath, pathSegments, setPath } from './json-path.ts';

describe('param_override paths', () => {
  it('splits on dots, keeping escaped ones in the name', () => {
    expect(pathSegments('a.b.0')).toEqual(['a', 'b', '0']);
    expect(pathSegments('metadata.user\\.id')).toEqual(['metadata', 'user.id']);
    expect(pathSegments('')).toEqual([]);
  });

  it('reads object members and array items, negative indexes from the end', () => {
    const body = { messages: [{ role: 'system' }, { role: 'user', content: 'hi' }], nothing: null };
    expect(getPath(body, 'messages.1.content')).toEqual({ found: true, value: 'hi' });
    expect(getPath(body, 'messages.-1.role')).toEqual({ found: true, value: 'user' });
    expect(getPath(body, 'messages.-3.role').found).toBe(false);
    expect(getPath(body, 'nothing')).toEqual({ found: true, value: null });
    expect(getPath(body, 'missing.deeper').found).toBe(false);
  });

  it('sets values, creating the objects on the way, and refuses an array index out of reach', () => {
    const body: Record<string, unknown> = { model: 'm', user: 'u', messages: [{ role: 'user' }] };
    expect(setPath(body, 'generation.config.temperature', 0.2)).toBe(true);
    expect(setPath(body, 'messages.-1.name', 'me')).toBe(true);
    expect(setPath(body, 'user.id', 'u1')).toBe(true);
    expect(setPath(body, 'messages.5.role', 'user')).toBe(false);
    expect(body).toEqual({ model: 'm', user: { id: 'u1' }, messages: [{ role: 'user', name: 'me' }], generation: { config: { temperature: 0.2 } } });
  });

  it('deletes members and array items, and says when nothing was there', () => {
    const body: Record<string, unknown> = { a: { 'b.c': 1, d: 2 }, list: [1, 2, 3] };
    expect(deletePath(body, 'a.b\\.c')).toBe(true);
    expect(deletePath(body, 'list.-1')).toBe(true);
    expect(deletePath(body, 'a.missing')).toBe(false);
    expect(body).toEqual({ a: { d: 2 }, list: [1, 2] });
  });
});
