import pino from 'pino';

/** What the process log writes its lines to, and how it is emptied. */
export interface LogLineDestination {
  write(line: string): boolean;
  /** Writes what is buffered (asynchronously); `done` runs once it is written. */
  flush(done?: (error?: Error) => void): void;
  /**
   * Writes what is buffered before returning (at exit). A block already being written asynchronously
   * is not waited for: sonic-boom's own behaviour, as before.
   */
  flushSync(): void;
}

/**
 * Log lines to a file descriptor in blocks of at least `minBytes`, through sonic-boom in its buffer
 * mode: each line becomes bytes once, and the block's size is a running sum. Its string mode measured
 * the whole pending block again on every line (`Buffer.byteLength` of a text growing to 8 KB): an
 * access line cost 4 to 5 µs instead of under 2 (bench/src/micro/log-lines.ts), several times the
 * line's own text.
 */
export function bufferedLogDestination(fd: number, minBytes: number): LogLineDestination {
  const boom = pino.destination({ dest: fd, sync: false, minLength: minBytes, contentMode: 'buffer' });
  return {
    write: (line) => boom.write(Buffer.from(line, 'utf8') as unknown as string),
    flush: (done) => boom.flush(done),
    flushSync: () => boom.flushSync(),
  };
}
