import { describe, expect, it } from 'vitest';
import { readHeaderOverride, withHeaderOverride } from './header-override.ts';

describe('header_override', () => {
  it('reads header names (lower-cased) and text values', () => {
    expect(readHeaderOverride({ 'X-Title': 'Switchboard', 'X-Retries': 3 })).toEqual({ 'x-title': 'Switchboard', 'x-retries': '3' });
    expect(readHeaderOverride({})).toBeUndefined();
  });

  it('refuses what cannot be a header', () => {
    expect(readHeaderOverride({ 'bad name': 'x' })).toBe('invalid');
    expect(readHeaderOverride({ 'x-a': 'one\r\nx-b: two' })).toBe('invalid');
    expect(readHeaderOverride({ 'x-a': { nested: true } })).toBe('invalid');
    expect(readHeaderOverride('x')).toBe('invalid');
  });

  it('replaces headers without regard to case and puts the attempt key in {api_key}', () => {
    const override = readHeaderOverride({ Authorization: 'Token {api_key}', 'x-api-key': '{api_key}', 'X-Title': 'sb' });
    if (!override || override === 'invalid') throw new Error('override expected');
    const headers = withHeaderOverride({ Authorization: 'Bearer sk-one', 'content-type': 'application/json' }, override, 'sk-one');
    expect(headers).toEqual({ 'content-type': 'application/json', authorization: 'Token sk-one', 'x-api-key': 'sk-one', 'x-title': 'sb' });
  });
});
