import { describe, expect, it } from 'vitest';
import { JsonArrayFraming } from './json-array-framing.ts';

describe('JsonArrayFraming', () => {
  it('writes Google array bytes: [ first, CRLF-separated commas, ] at the end', () => {
    const framing = new JsonArrayFraming();
    const text = framing.element('{"a":1}') + framing.element('{"b":2}') + framing.close();
    expect(text).toBe('[{"a":1},\r\n{"b":2}]');
    expect(JSON.parse(text)).toEqual([{ a: 1 }, { b: 2 }]);
  });

  it('ends with the error as the last element, also when nothing was written before', () => {
    const after = new JsonArrayFraming();
    expect(JSON.parse(after.element('{"a":1}') + after.close('{"error":{"code":500}}'))).toEqual([{ a: 1 }, { error: { code: 500 } }]);
    expect(new JsonArrayFraming().close('{"error":{"code":500}}')).toBe('[{"error":{"code":500}}]');
  });

  it('leaves out a withdrawn element: the next one opens the array if the withdrawn one did', () => {
    const framing = new JsonArrayFraming();
    framing.element('{"stopped":true}');
    framing.withdrawLast();
    expect(framing.close('{"error":{"code":400}}')).toBe('[{"error":{"code":400}}]');
  });

  it('closes an empty stream as an empty array', () => {
    expect(new JsonArrayFraming().close()).toBe('[]');
  });
});
