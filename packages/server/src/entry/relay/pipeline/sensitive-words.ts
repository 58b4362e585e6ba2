import type { OptionStore } from '../../../domain/options/option-store.ts';

/**
 * The SensitiveWords option as a matcher (one word per line, case-insensitive). The list is small
 * and admin-edited, so a scan per word over the lower-cased text is enough; it is rebuilt only when
 * the option text changes.
 */
export class SensitiveWords {
  private source = '';
  private words: string[] = [];
  private readonly options: OptionStore;

  constructor(options: OptionStore) {
    this.options = options;
  }

  private current(): string[] {
    const text = this.options.get('SensitiveWords');
    if (text !== this.source) {
      this.source = text;
      this.words = text
        .split(/\r?\n/)
        .map((word) => word.trim().toLowerCase())
        .filter(Boolean);
    }
    return this.words;
  }

  /** Length of the longest word (0 when the list is empty). */
  longestWordLength(): number {
    return this.current().reduce((longest, word) => Math.max(longest, word.length), 0);
  }

  /** The words found in a text (empty when none). */
  find(text: string): string[] {
    if (!text) return [];
    const lower = text.toLowerCase();
    return this.current().filter((word) => lower.includes(word));
  }

  /** Checking prompts is on (CheckSensitiveEnabled and CheckSensitiveOnPromptEnabled). */
  get checksPrompt(): boolean {
    return this.options.getBoolean('CheckSensitiveEnabled') && this.options.getBoolean('CheckSensitiveOnPromptEnabled');
  }

  get checksCompletion(): boolean {
    return this.options.getBoolean('CheckSensitiveEnabled') && this.options.getBoolean('CheckSensitiveOnCompletionEnabled');
  }

  get stops(): boolean {
    return this.options.getBoolean('StopOnSensitiveEnabled');
  }

  /** Replaces each found word with asterisks (when not stopping). */
  mask(text: string, found: readonly string[]): string {
    let masked = text;
    for (const word of found) masked = masked.replace(new RegExp(word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '*'.repeat(word.length));
    return masked;
  }
}

/**
 * Checks a streamed answer piece by piece. The last characters of the text seen so far are kept (one
 * fewer than the longest word), so a word split across two chunks is still found.
 */
export class StreamSensitiveCheck {
  private readonly words: SensitiveWords;
  private readonly keep: number;
  private tail = '';

  constructor(words: SensitiveWords) {
    this.words = words;
    this.keep = Math.max(0, words.longestWordLength() - 1);
  }

  /** The words found in this piece of text, including those that began in earlier pieces. */
  inspect(text: string): string[] {
    if (!text) return [];
    const window = this.tail + text;
    this.tail = this.keep > 0 ? window.slice(-this.keep) : '';
    return this.words.find(window);
  }
}
