import { describe, expect, it } from 'vitest';
import { capText } from './payload-capping.ts';
import { storedBody, storedText } from './payload-body.ts';

describe('payload capping', () => {
  it('keeps text within the limit whole and unflagged', () => {
    expect(capText('hello', 5)).toEqual({ text: 'hello', truncated: false });
    expect(capText('', 0)).toEqual({ text: '', truncated: false });
  });

  it('cuts to the byte limit and flags the cut', () => {
    const capped = capText('a'.repeat(100), 10);
    expect(capped).toEqual({ text: 'a'.repeat(10), truncated: true });
  });

  it('never cuts inside a multi-byte character', () => {
    // '中' is 3 bytes and '😀' 4 in UTF-8: a limit inside one drops it whole.
    expect(capText('中中中', 7)).toEqual({ text: '中中', truncated: true });
    expect(capText('a😀b', 4)).toEqual({ text: 'a', truncated: true });
    expect(Buffer.byteLength(capText('é'.repeat(1000), 1001).text)).toBe(1000);
  });

  it('redacts before capping, so a secret near the cut never survives in part', () => {
    const body = JSON.stringify({ messages: [{ role: 'user', content: 'x'.repeat(200) }], api_key: 'sk-'.padEnd(60, 'z') });
    const stored = storedText(body, 120);
    expect(stored.truncated).toBe(true);
    expect(Buffer.byteLength(stored.text)).toBeLessThanOrEqual(120);
    expect(stored.text).not.toContain('zzzz');
  });

  it('describes binary bodies instead of storing them, and keeps only the start of huge text', () => {
    expect(storedBody(Buffer.from([0, 1, 2, 3]), 'audio/mpeg', 100)).toEqual({ text: '[audio/mpeg body of 4 bytes, not stored]', truncated: true });
    const huge = `{"content":"${'y'.repeat(2 * 1024 * 1024)}","api_key":"a"}`;
    const stored = storedBody(Buffer.from(huge), 'application/json', 1024);
    expect(stored.truncated).toBe(true);
    expect(Buffer.byteLength(stored.text)).toBeLessThanOrEqual(1024);
  });
});
