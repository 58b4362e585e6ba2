/**
 * The server-sent-event wire format (https://html.spec.whatwg.org/multipage/server-sent-events.html),
 * read the one way every part of Switchboard reads it: the relay (which forwards events as written
 * and so needs each raw block), the console's playground and the tests. Line ends may be LF, CRLF or
 * CR, also split across chunks; an event ends at a blank line.
 */

/** One event: its `event:` field ('' when absent) and its `data:` lines joined by '\n'. */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * Cuts a stream of text chunks into complete event blocks (the lines of one event, LF-separated,
 * without the blank line that ended it). A partial block waits for the next chunk.
 */
export class SseBlockSplitter {
  private buffer = '';
  /** A CR that ended the previous chunk: maybe half of a CRLF whose LF opens the next one. */
  private carriedReturn = false;

  /** Part of an event is waiting for the rest of it (or a CR for a possible LF). */
  get holdsText(): boolean {
    return this.buffer !== '' || this.carriedReturn;
  }

  /** Adds a chunk; the blocks it completes are then taken with `next` (or use `push`). */
  append(text: string): void {
    this.buffer += this.normalizeLineEnds(text, false);
  }

  /**
   * Takes one complete block, or undefined while none is complete. A reader may stop between blocks
   * (the relay stops at a sensitive word) without cutting up text it will not read.
   */
  next(): string | undefined {
    for (let end = this.buffer.indexOf('\n\n'); end >= 0; end = this.buffer.indexOf('\n\n')) {
      const block = this.buffer.slice(0, end);
      // Most chunks end with their event: no copy of an empty rest.
      this.buffer = end + 2 === this.buffer.length ? '' : this.buffer.slice(end + 2);
      if (block) return block;
    }
    return undefined;
  }

  /** Adds a chunk and takes every block it completes, in order. */
  push(text: string): string[] {
    this.append(text);
    const blocks: string[] = [];
    for (let block = this.next(); block !== undefined; block = this.buffer ? this.next() : undefined) blocks.push(block);
    return blocks;
  }

  /** At the end of the stream: what is left, as a last block when it holds anything but blank lines. */
  end(): string | undefined {
    const rest = (this.buffer + this.normalizeLineEnds('', true)).trim();
    this.buffer = '';
    return rest || undefined;
  }

  private normalizeLineEnds(text: string, last: boolean): string {
    let lines = this.carriedReturn ? `\r${text}` : text;
    this.carriedReturn = false;
    if (!lines.includes('\r')) return lines;
    // Normalised only once its LF is seen, so a CRLF split across chunks stays one line end.
    if (!last && lines.endsWith('\r')) {
      this.carriedReturn = true;
      lines = lines.slice(0, -1);
    }
    return lines.replace(/\r\n?/g, '\n');
  }
}

/** The event in one block, or undefined when it carries no data (a comment, a lone `event:` or `id:`). */
export function parseSseBlock(block: string): SseEvent | undefined {
  let data: string | undefined;
  let event = '';
  let lineStart = 0;
  while (lineStart <= block.length) {
    let lineEnd = block.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = block.length;
    if (block.startsWith('data:', lineStart)) {
      // One space after the colon belongs to the syntax, not the value.
      const valueStart = block.charCodeAt(lineStart + 5) === 32 ? lineStart + 6 : lineStart + 5;
      const value = block.slice(valueStart, lineEnd);
      data = data === undefined ? value : `${data}\n${value}`;
    } else if (block.startsWith('event:', lineStart)) {
      event = block.slice(lineStart + 6, lineEnd).trim();
    }
    lineStart = lineEnd + 1;
  }
  return data === undefined ? undefined : { event, data };
}

/** Every event of a whole stream's text. */
export function parseSseText(text: string): SseEvent[] {
  const splitter = new SseBlockSplitter();
  const blocks = splitter.push(text);
  const last = splitter.end();
  if (last !== undefined) blocks.push(last);
  return blocks.map(parseSseBlock).filter((event) => event !== undefined);
}
