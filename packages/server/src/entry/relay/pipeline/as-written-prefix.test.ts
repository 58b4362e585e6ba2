import { describe, expect, it } from 'vitest';
import { asWrittenPrefixLength, endsAtEventBoundary } from './as-written-prefix.ts';

const content = 'data: {"choices":[{"delta":{"content":"Hi"}}],"usage":null}\n\n';
const comment = ': keep-alive\n\n';
const usage = 'data: {"choices":[],"usage": {"prompt_tokens":3,"completion_tokens":1}}\n\n';
const done = 'data: [DONE]\n\n';

function prefixOf(text: string): string {
  const chunk = Buffer.from(text);
  return chunk.subarray(0, asWrittenPrefixLength(chunk)).toString();
}

describe('asWrittenPrefixLength', () => {
  it('takes every whole ordinary event, `"usage": null` and comments included', () => {
    expect(prefixOf(content + comment + content)).toBe(content + comment + content);
  });

  it('stops at the end of the last whole event when the chunk ends inside one', () => {
    expect(prefixOf(content + content.slice(0, 20))).toBe(content);
    expect(prefixOf(content.slice(0, 20))).toBe('');
  });

  it('stops before a frame that carries usage, before [DONE] and before a CR', () => {
    expect(prefixOf(content + usage + content)).toBe(content);
    expect(prefixOf(content + content + done)).toBe(content + content);
    expect(prefixOf(content + 'data: {"a":1}\r\n\r\n')).toBe(content);
    expect(prefixOf(`data: {"usage"\n:\t{"x":1}}\n\n`)).toBe('');
  });

  it('leaves empty lines between events, and a chunk opening with one, to the event-by-event path', () => {
    expect(prefixOf(`${content}\n${content}`)).toBe(content);
    expect(prefixOf(`\n${content}`)).toBe('');
  });

  it('counts bytes, not characters, and never cuts a multi-byte character', () => {
    const cjk = 'data: {"choices":[{"delta":{"content":"你好"}}]}\n\n';
    const chunk = Buffer.from(cjk + cjk.slice(0, 45));
    expect(asWrittenPrefixLength(chunk)).toBe(Buffer.byteLength(cjk));
  });
});

describe('endsAtEventBoundary', () => {
  it('is true only after a blank line', () => {
    expect(endsAtEventBoundary(Buffer.from(content))).toBe(true);
    expect(endsAtEventBoundary(Buffer.from(content.slice(0, -1)))).toBe(false);
    expect(endsAtEventBoundary(Buffer.from('\n'))).toBe(false);
  });
});
