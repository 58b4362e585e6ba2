/**
 * Deterministic randomness for the realistic data set and its traffic: the same seed gives the same
 * rows and the same request mix on every machine, so two runs (or two builds) see the same data.
 */

/** mulberry32: a 32-bit generator, fast and good enough for picking rows (not for secrets). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * Picks ranks 0…size-1 with probability proportional to 1 / (rank + 1)^s (Zipf): rank 0 is the busiest
 * token or model, the tail is long. The cumulative weights are built once; a pick is a binary search.
 */
export class ZipfPicker {
  private readonly cumulative: Float64Array;
  readonly size: number;
  private readonly random: () => number;

  constructor(size: number, exponent: number, random: () => number) {
    this.size = size;
    this.random = random;
    if (!Number.isInteger(size) || size < 1) throw new Error(`a Zipf picker needs at least one item, got ${size}`);
    this.cumulative = new Float64Array(size);
    let total = 0;
    for (let rank = 0; rank < size; rank += 1) {
      total += 1 / (rank + 1) ** exponent;
      this.cumulative[rank] = total;
    }
    for (let rank = 0; rank < size; rank += 1) this.cumulative[rank] = (this.cumulative[rank] ?? 0) / total;
  }

  /** The probability of one rank (for tests and for the README's figures). */
  share(rank: number): number {
    return (this.cumulative[rank] ?? 0) - (rank > 0 ? (this.cumulative[rank - 1] ?? 0) : 0);
  }

  pick(): number {
    const target = this.random();
    let low = 0;
    let high = this.size - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.cumulative[middle] ?? 1) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}
