/**
 * A byte-pair vocabulary (token bytes → rank) in three typed arrays instead of a Map of 200,000
 * strings: the token bytes end to end, where each rank's bytes start, and an open-addressing hash
 * table of ranks. o200k_base takes about 4.5 MB this way; the JavaScript tokenizer we used before
 * kept about 70 MB of RSS for the same table, for as long as the process ran.
 */
export class BpeRanks {
  private readonly bytes: Uint8Array;
  /** Rank r's bytes are bytes[starts[r], starts[r + 1]); a rank the file skips has none. */
  private readonly starts: Uint32Array;
  /** rank + 1 per slot, 0 for an empty slot; the size is a power of two at least twice the count. */
  private readonly slots: Int32Array;
  private readonly mask: number;
  /** How many ranks the vocabulary holds. */
  readonly size: number;

  private constructor(bytes: Uint8Array, starts: Uint32Array, size: number) {
    this.bytes = bytes;
    this.starts = starts;
    this.size = size;
    let slotCount = 1;
    while (slotCount < size * 2) slotCount *= 2;
    const slots = new Int32Array(slotCount);
    const mask = slotCount - 1;
    for (let rank = 0; rank + 1 < starts.length; rank += 1) {
      const start = starts[rank]!;
      const end = starts[rank + 1]!;
      if (end === start) continue;
      let slot = hashBytes(bytes, start, end) & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = rank + 1;
    }
    this.slots = slots;
    this.mask = mask;
  }

  /**
   * Reads tiktoken's rank file: one `<base64 token bytes> <rank>` line per token, ranks ascending
   * (gaps allowed). One pass over the bytes, decoding straight into the table, so loading makes no
   * string or Buffer per token.
   */
  static fromTiktokenFile(file: Uint8Array): BpeRanks {
    const bytes = new Uint8Array(Math.ceil((file.length * 3) / 4));
    let starts = new Uint32Array(1024);
    let written = 0;
    let size = 0;
    let nextRank = 0;
    let lineStart = 0;
    let space = -1;
    for (let position = 0; position <= file.length; position += 1) {
      const byte = position < file.length ? file[position]! : 0x0a;
      if (byte === 0x20 && space === -1) space = position;
      if (byte !== 0x0a) continue;
      if (space !== -1) {
        const rank = parseDecimal(file, space + 1, position);
        if (rank < nextRank) throw new Error(`token ranks must ascend: ${rank} after ${nextRank - 1}`);
        if (rank + 2 > starts.length) {
          const grown = new Uint32Array(Math.max(starts.length * 2, rank + 2));
          grown.set(starts);
          starts = grown;
        }
        // A skipped rank has no bytes: it starts and ends where the next one starts.
        for (; nextRank <= rank; nextRank += 1) starts[nextRank] = written;
        written = decodeBase64(file, lineStart, space, bytes, written);
        size += 1;
      }
      lineStart = position + 1;
      space = -1;
    }
    starts[nextRank] = written;
    return new BpeRanks(bytes.slice(0, written), starts.slice(0, nextRank + 1), size);
  }

  /** The rank of bytes[start, end), or -1 when they are not one token. */
  rankOf(piece: Uint8Array, start: number, end: number): number {
    const length = end - start;
    let slot = hashBytes(piece, start, end) & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const rank = entry - 1;
      const tokenStart = this.starts[rank]!;
      if (this.starts[rank + 1]! - tokenStart === length && sameBytes(this.bytes, tokenStart, piece, start, length)) return rank;
      slot = (slot + 1) & this.mask;
    }
  }
}

/** FNV-1a, 32 bits. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ bytes[index]!, 0x01000193);
  return hash >>> 0;
}

function sameBytes(left: Uint8Array, leftStart: number, right: Uint8Array, rightStart: number, length: number): boolean {
  for (let index = 0; index < length; index += 1) if (left[leftStart + index] !== right[rightStart + index]) return false;
  return true;
}

const base64Values = (() => {
  const values = new Int8Array(256).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let index = 0; index < alphabet.length; index += 1) values[alphabet.charCodeAt(index)] = index;
  return values;
})();

/** Decodes base64 text[start, end) into out from `at`; returns where the bytes end. Padding ends it. */
function decodeBase64(text: Uint8Array, start: number, end: number, out: Uint8Array, at: number): number {
  let buffer = 0;
  let bits = 0;
  let written = at;
  for (let index = start; index < end; index += 1) {
    const value = base64Values[text[index]!]!;
    if (value < 0) break;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[written] = (buffer >> bits) & 0xff;
      written += 1;
    }
  }
  return written;
}

function parseDecimal(text: Uint8Array, start: number, end: number): number {
  let value = 0;
  for (let index = start; index < end; index += 1) {
    const digit = text[index]! - 0x30;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  return value;
}
