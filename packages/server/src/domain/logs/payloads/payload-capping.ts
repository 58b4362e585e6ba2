/** A body as stored: at most the configured bytes, and whether anything was cut. */
export interface CappedText {
  readonly text: string;
  readonly truncated: boolean;
}

/**
 * The text cut to at most `maxBytes` bytes of UTF-8, never inside a character (a cut character is
 * dropped whole, so the stored text decodes cleanly).
 */
export function capText(text: string, maxBytes: number): CappedText {
  const limit = Math.max(0, Math.floor(maxBytes));
  // Each UTF-16 unit is at most 3 bytes of UTF-8: short texts need no encoding to know they fit.
  if (text.length * 3 <= limit) return { text, truncated: false };
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return { text, truncated: false };
  let end = limit;
  // Back off continuation bytes (10xxxxxx) to the start of the character the limit falls in.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}
