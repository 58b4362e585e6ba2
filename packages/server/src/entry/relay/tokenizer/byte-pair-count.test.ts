import { describe, expect, it } from 'vitest';
import { BpeRanks } from './bpe-ranks.ts';
import { countBytePairTokens } from './byte-pair-count.ts';

/** tiktoken's merge loop as plainly as it can be written: the reference both paths must equal. */
function referenceCount(vocabulary: Map<string, number>, piece: string): number {
  const parts = [...piece];
  for (;;) {
    let lowest = Infinity;
    let at = -1;
    for (let index = 0; index + 1 < parts.length; index += 1) {
      const rank = vocabulary.get(parts[index]! + parts[index + 1]!);
      if (rank !== undefined && rank < lowest) {
        lowest = rank;
        at = index;
      }
    }
    if (at === -1) return parts.length;
    parts.splice(at, 2, parts[at]! + parts[at + 1]!);
  }
}

/** A seeded vocabulary over "abcd": the single bytes, then random joins of existing tokens. */
function vocabularyOf(seed: number): Map<string, number> {
  let state = seed;
  const random = () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
  const tokens = ['a', 'b', 'c', 'd'];
  while (tokens.length < 120) {
    const joined = tokens[Math.floor(random() * tokens.length)]! + tokens[Math.floor(random() * tokens.length)]!;
    if (joined.length <= 6 && !tokens.includes(joined)) tokens.push(joined);
  }
  return new Map(tokens.map((token, rank) => [token, rank]));
}

describe('countBytePairTokens', () => {
  it('merges as tiktoken does, on both sides of the long-piece switch', () => {
    for (const seed of [1, 2, 3]) {
      const vocabulary = vocabularyOf(seed);
      const file = new TextEncoder().encode([...vocabulary].map(([token, rank]) => `${Buffer.from(token).toString('base64')} ${rank}`).join('\n'));
      const ranks = BpeRanks.fromTiktokenFile(file);
      let state = seed * 7;
      const random = () => (state = (state * 1_103_515_245 + 12_345) & 0x7fffffff) / 0x7fffffff;
      // Lengths around 128, where counting switches from rescanning to the heap, and far beyond.
      for (const length of [1, 2, 3, 5, 17, 64, 127, 128, 129, 130, 200, 400, 1_000]) {
        for (let round = 0; round < 20; round += 1) {
          const piece = Array.from({ length }, () => 'abcd'[Math.floor(random() * (random() < 0.5 ? 2 : 4))]).join('');
          const bytes = new TextEncoder().encode(piece);
          expect(countBytePairTokens(ranks, bytes, bytes.length), `${seed}/${piece}`).toBe(referenceCount(vocabulary, piece));
        }
      }
    }
  });
});
