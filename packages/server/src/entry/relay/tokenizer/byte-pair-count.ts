import type { BpeRanks } from './bpe-ranks.ts';

/**
 * How many tokens tiktoken's byte-pair merge makes of piece[0, length): start from single bytes and
 * merge, again and again, the adjacent pair whose joined bytes have the lowest rank (the leftmost of
 * equal ranks) until no adjacent pair is a token. Only the count is needed, not the tokens.
 *
 * Short pieces (nearly all: words, numbers, punctuation runs) rescan their parts after each merge,
 * as tiktoken does; that is quadratic, so a long piece (a run of letters with no space, a long
 * whitespace run) goes through a heap instead and costs n log n. Both merge in the same order.
 */
export function countBytePairTokens(ranks: BpeRanks, piece: Uint8Array, length: number): number {
  if (length <= 1) return length;
  if (ranks.rankOf(piece, 0, length) !== -1) return 1;
  return length <= longPiece ? countByScanning(ranks, piece, length) : countWithHeap(ranks, piece, length);
}

const longPiece = 128;
const noMerge = 0x7fffffff;

/** Part starts, and the rank of each part joined with the next (tiktoken's `_byte_pair_merge`). */
const scanStarts = new Int32Array(longPiece + 1);
const scanRanks = new Int32Array(longPiece + 1);

function countByScanning(ranks: BpeRanks, piece: Uint8Array, length: number): number {
  let parts = length + 1;
  for (let index = 0; index < parts; index += 1) {
    scanStarts[index] = index;
    scanRanks[index] = index + 2 <= length ? rankOrNone(ranks, piece, index, index + 2) : noMerge;
  }
  for (;;) {
    let lowest = noMerge;
    let at = -1;
    for (let index = 0; index < parts - 1; index += 1) {
      if (scanRanks[index]! < lowest) {
        lowest = scanRanks[index]!;
        at = index;
      }
    }
    if (at === -1) return parts - 1;
    // Part `at` absorbs part at + 1; the ranks of it and its left neighbour change.
    if (at > 0) scanRanks[at - 1] = at + 2 < parts ? rankOrNone(ranks, piece, scanStarts[at - 1]!, scanStarts[at + 2]!) : noMerge;
    scanRanks[at] = at + 3 < parts ? rankOrNone(ranks, piece, scanStarts[at]!, scanStarts[at + 3]!) : noMerge;
    scanStarts.copyWithin(at + 1, at + 2, parts);
    scanRanks.copyWithin(at + 1, at + 2, parts);
    parts -= 1;
  }
}

/**
 * The same merges with the parts in a linked list and the candidate merges in a min-heap keyed by
 * (rank, start): the heap's top is the pair the scan would pick. An entry whose part has merged
 * since, or whose rank changed, is stale and skipped.
 */
function countWithHeap(ranks: BpeRanks, piece: Uint8Array, length: number): number {
  // Parts are named by their start byte; next[start] is the following part's start (length: none).
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  const rankWithNext = new Int32Array(length);
  const alive = new Uint8Array(length);
  const heap = new MinHeap(length);
  for (let start = 0; start < length; start += 1) {
    next[start] = start + 1;
    previous[start] = start - 1;
    alive[start] = 1;
    const rank = start + 2 <= length ? rankOrNone(ranks, piece, start, start + 2) : noMerge;
    rankWithNext[start] = rank;
    if (rank !== noMerge) heap.push(rank, start);
  }
  let parts = length;
  const rejoin = (start: number) => {
    const following = next[start]!;
    const end = following < length ? next[following]! : -1;
    const rank = end === -1 ? noMerge : rankOrNone(ranks, piece, start, end);
    rankWithNext[start] = rank;
    if (rank !== noMerge) heap.push(rank, start);
  };
  while (heap.size > 0) {
    const key = heap.pop();
    const rank = Math.floor(key / startSpan);
    const start = key - rank * startSpan;
    if (alive[start] === 0 || rankWithNext[start] !== rank) continue;
    const absorbed = next[start]!;
    alive[absorbed] = 0;
    next[start] = next[absorbed]!;
    if (next[start]! < length) previous[next[start]!] = start;
    parts -= 1;
    rejoin(start);
    if (previous[start]! >= 0) rejoin(previous[start]!);
  }
  return parts;
}

function rankOrNone(ranks: BpeRanks, piece: Uint8Array, start: number, end: number): number {
  const rank = ranks.rankOf(piece, start, end);
  return rank === -1 ? noMerge : rank;
}

/** Keys are rank × startSpan + start: one number orders by rank, then by start. */
const startSpan = 2 ** 32;

class MinHeap {
  private keys: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.keys = new Float64Array(Math.max(16, capacity * 2));
  }

  push(rank: number, start: number): void {
    if (this.size === this.keys.length) {
      const grown = new Float64Array(this.keys.length * 2);
      grown.set(this.keys);
      this.keys = grown;
    }
    const key = rank * startSpan + start;
    let index = this.size;
    this.size += 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (this.keys[parent]! <= key) break;
      this.keys[index] = this.keys[parent]!;
      index = parent;
    }
    this.keys[index] = key;
  }

  pop(): number {
    const top = this.keys[0]!;
    this.size -= 1;
    const last = this.keys[this.size]!;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= this.size) break;
      const right = left + 1;
      const child = right < this.size && this.keys[right]! < this.keys[left]! ? right : left;
      if (this.keys[child]! >= last) break;
      this.keys[index] = this.keys[child]!;
      index = child;
    }
    this.keys[index] = last;
    return top;
  }
}
