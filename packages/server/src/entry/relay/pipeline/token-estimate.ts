import { countO200kTokens } from '../tokenizer/o200k-tokens.ts';

/**
 * A fast upper-leaning estimate of tokens for holding quota before the call: about four Latin
 * characters per token, one token per other character (CJK, emoji). It costs one pass over the
 * text, where a real tokenizer on a long prompt would cost milliseconds on the hot path; the exact
 * count (`countTextTokens`) is used only when the upstream reports no usage.
 */
export function estimateTokens(text: string): number {
  let ascii = 0;
  let other = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) < 128) ascii += 1;
    else other += 1;
  }
  return Math.ceil(ascii / 4) + other;
}

/** Exact tokens of a text in o200k_base (its vocabulary is read on first use). */
export function countTextTokens(text: string): number {
  return text ? countO200kTokens(text) : 0;
}

/**
 * Counts generated text as it streams with bounded memory: text is tokenized in blocks once a block
 * is long enough, so a very long answer never sits in memory whole (new-api kept all of it).
 */
export class StreamTextCounter {
  private pending = '';
  private counted = 0;
  private static readonly blockLength = 16_384;

  add(text: string): void {
    if (!text) return;
    this.pending += text;
    if (this.pending.length >= StreamTextCounter.blockLength) {
      this.counted += countTextTokens(this.pending);
      this.pending = '';
    }
  }

  total(): number {
    return this.counted + countTextTokens(this.pending);
  }
}
