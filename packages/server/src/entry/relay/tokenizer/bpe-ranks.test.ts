import { describe, expect, it } from 'vitest';
import { BpeRanks } from './bpe-ranks.ts';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const rankFile = (lines: Array<[string, number]>) => new TextEncoder().encode(lines.map(([token, rank]) => `${base64(token)} ${rank}`).join('\n'));
const bytes = (text: string) => new TextEncoder().encode(text);

describe('BpeRanks', () => {
  it('finds each token of a rank file by its bytes, and nothing else', () => {
    const ranks = BpeRanks.fromTiktokenFile(
      rankFile([
        ['a', 0],
        ['b', 1],
        ['ab', 2],
        ['世', 3],
        ['abc', 4],
      ]),
    );
    expect(ranks.size).toBe(5);
    for (const [token, rank] of [
      ['a', 0],
      ['b', 1],
      ['ab', 2],
      ['世', 3],
      ['abc', 4],
    ] as const) {
      const piece = bytes(token);
      expect(ranks.rankOf(piece, 0, piece.length)).toBe(rank);
    }
    const text = bytes('xxabcxx');
    expect(ranks.rankOf(text, 2, 4)).toBe(2);
    expect(ranks.rankOf(text, 2, 5)).toBe(4);
    expect(ranks.rankOf(text, 0, 1)).toBe(-1);
    expect(ranks.rankOf(text, 3, 5)).toBe(-1);
    expect(ranks.rankOf(text, 2, 2)).toBe(-1);
  });

  it('keeps ranks the file skips empty, reads a final newline and padding, and refuses descending ranks', () => {
    const withGaps = new TextEncoder().encode(`${base64('x')} 0\n${base64('yz')} 5\n${base64('xyz')} 6\n`);
    const ranks = BpeRanks.fromTiktokenFile(withGaps);
    expect(ranks.size).toBe(3);
    expect(ranks.rankOf(bytes('yz'), 0, 2)).toBe(5);
    expect(ranks.rankOf(bytes('xyz'), 0, 3)).toBe(6);
    expect(() =>
      BpeRanks.fromTiktokenFile(
        rankFile([
          ['a', 1],
          ['b', 0],
        ]),
      ),
    ).toThrow('token ranks must ascend: 0 after 1');
  });
});
