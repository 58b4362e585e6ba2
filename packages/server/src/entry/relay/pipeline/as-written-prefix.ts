const lineFeed = 0x0a;
const carriageReturn = 0x0d;
const blankLine = Buffer.from('\n\n');
/** An event boundary followed by an empty line: the splitter drops or keeps such lines its own way. */
const blankLineRun = Buffer.from('\n\n\n');
const doneMarker = Buffer.from('[DONE]');
const usageKey = Buffer.from('"usage"');

function isJsonSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === lineFeed || byte === carriageReturn;
}

/** Where the first `"usage"` key whose value is an object starts (`"usage": null` does not count), or -1. */
function usageObjectAt(chunk: Buffer): number {
  for (let key = chunk.indexOf(usageKey); key >= 0; key = chunk.indexOf(usageKey, key + usageKey.length)) {
    let at = key + usageKey.length;
    while (isJsonSpace(chunk[at])) at += 1;
    if (chunk[at] !== 0x3a) continue;
    at += 1;
    while (isJsonSpace(chunk[at])) at += 1;
    if (chunk[at] === 0x7b) return key;
  }
  return -1;
}

function positionOrEnd(found: number, end: number): number {
  return found < 0 ? end : found;
}

/**
 * How many leading bytes of an upstream chunk a plain pass-through can write to the caller exactly as
 * they came, without decoding them: whole events only (the prefix ends with a blank line), stopping
 * before the first thing the event-by-event path changes or must read: a CR (line ends are
 * normalised), `[DONE]` (held back until the charge is recorded), a frame that may carry usage (parsed,
 * and hidden when only we asked for it) and empty lines between events. The chunk must begin at an
 * event boundary; the rest of it goes through the event-by-event path.
 *
 * Why: an instant answer of 64 frames arrives in one or two chunks, and splitting, decoding and
 * re-encoding each frame was most of the relay's CPU per stream beyond the bare pass-through's.
 */
export function asWrittenPrefixLength(chunk: Buffer): number {
  if (chunk[0] === lineFeed) return 0;
  let limit = chunk.length;
  limit = Math.min(limit, positionOrEnd(chunk.indexOf(carriageReturn), limit));
  limit = Math.min(limit, positionOrEnd(chunk.indexOf(doneMarker), limit));
  limit = Math.min(limit, positionOrEnd(usageObjectAt(chunk), limit));
  const run = chunk.indexOf(blankLineRun);
  if (run >= 0) limit = Math.min(limit, run + blankLine.length);
  if (limit < blankLine.length) return 0;
  const lastBoundary = chunk.lastIndexOf(blankLine, limit - blankLine.length);
  return lastBoundary < 0 ? 0 : lastBoundary + blankLine.length;
}

/** The chunk ends an event: the next one begins at a boundary (with nothing half-decoded before it). */
export function endsAtEventBoundary(chunk: Buffer): boolean {
  return chunk.length >= 2 && chunk[chunk.length - 1] === lineFeed && chunk[chunk.length - 2] === lineFeed;
}
