import { Writable } from 'node:stream';
import { createLogger } from '../core/platform/logger.ts';

/** A logger at `warn` whose lines (JSON, one per entry) are kept for the test to read. */
export function capturedLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { logger: createLogger('warn', destination), lines };
}
