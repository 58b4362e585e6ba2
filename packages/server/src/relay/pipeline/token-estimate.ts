import { createRequire } from 'node:module';

type CountTokens = (text: string) => number;
let countTokens: CountTokens | undefined;

/**
 * The tokenizer is needed only when an upstream reports no usage, and its tables cost about 70 MB,
 * so it is loaded on first use (synchronously: Node 24 can require an ES module).
 */
function tokenizer(): CountTokens {
  countTokens ??= (createRequire(import.meta.url)('gpt-tokenizer') as { countTokens: CountTokens }).countTokens;
  return countTokens;
}

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

/** Exact tokens of a text with the o200k-style tokenizer (loaded on first use). */
export function countTextTokens(text: string): number {
  return text ? tokenizer()(text) : 0;
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
