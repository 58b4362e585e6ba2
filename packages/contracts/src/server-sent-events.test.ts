import { describe, expect, it } from 'vitest';
import { parseSseBlock, parseSseText, SseBlockSplitter } from './server-sent-events.ts';

/** Feeds `text` to a splitter in pieces of `size` characters and returns every block, the end's included. */
function splitInPieces(text: string, size: number): string[] {
  const splitter = new SseBlockSplitter();
  const blocks: string[] = [];
  for (let at = 0; at < text.length; at += size) blocks.push(...splitter.push(text.slice(at, at + size)));
  const last = splitter.end();
  if (last !== undefined) blocks.push(last);
  return blocks;
}

describe('server-sent events', () => {
  const stream = 'event: message_start\ndata: {"a":1}\n\n: keep-alive comment\n\ndata: first line\ndata:  second line\n\ndata: [DONE]\n\n';

  it('cuts blocks at blank lines and reads their event and data fields', () => {
    expect(parseSseText(stream)).toEqual([
      { event: 'message_start', data: '{"a":1}' },
      // Only one space after the colon is syntax; the second belongs to the value.
      { event: '', data: 'first line\n second line' },
      { event: '', data: '[DONE]' },
    ]);
  });

  it('gives the same blocks however the stream is cut, with LF, CRLF or CR line ends', () => {
    const whole = splitInPieces(stream, stream.length);
    expect(whole).toHaveLength(4);
    for (const lineEnd of ['\n', '\r\n', '\r']) {
      const text = stream.replaceAll('\n', lineEnd);
      // One character at a time splits every CRLF in two.
      for (const size of [1, 2, 3, 7, text.length]) expect(splitInPieces(text, size)).toEqual(whole);
    }
  });

  it('hands out one block at a time and keeps the rest for later', () => {
    const splitter = new SseBlockSplitter();
    splitter.append('data: 1\n\ndata: 2\n\ndata: 3');
    expect(splitter.next()).toBe('data: 1');
    expect(splitter.next()).toBe('data: 2');
    expect(splitter.next()).toBeUndefined();
    splitter.append('\n\n\n\n');
    expect(splitter.next()).toBe('data: 3');
    expect(splitter.next()).toBeUndefined();
    expect(splitter.end()).toBeUndefined();
  });

  it('returns an unterminated last event at the end of the stream, and nothing for trailing blank lines', () => {
    const splitter = new SseBlockSplitter();
    expect(splitter.push('data: {"partial":true}\r')).toEqual([]);
    expect(splitter.end()).toBe('data: {"partial":true}');
    expect(splitter.end()).toBeUndefined();
  });

  it('finds no event in a block without data', () => {
    expect(parseSseBlock(': comment')).toBeUndefined();
    expect(parseSseBlock('event: ping\nid: 4')).toBeUndefined();
    expect(parseSseBlock('data:')).toEqual({ event: '', data: '' });
    expect(parseSseBlock('data:x\nevent:  delta ')).toEqual({ event: 'delta', data: 'x' });
  });
});
