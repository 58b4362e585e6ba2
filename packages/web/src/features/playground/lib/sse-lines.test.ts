import { describe, expect, it } from 'vitest';
import { createSseParser } from './sse-lines.ts';

describe('createSseParser', () => {
  it('yields data payloads across chunk boundaries and ignores other lines', () => {
    const payloads: string[] = [];
    const parse = createSseParser((payload) => payloads.push(payload));
    parse('data: {"a"');
    parse(':1}\r\n\n: keep-alive\nevent: x\ndata: [DO');
    parse('NE]\n\n');
    expect(payloads).toEqual(['{"a":1}', '[DONE]']);
  });
});
