import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, LazyChildLogger } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString('utf8'));
      callback();
    },
  });
  return { logger: createLogger('info', destination), lines };
}

describe('per-request logger', () => {
  it("logs with the request's bindings and redacts like its parent", () => {
    const { logger, lines } = capture();
    const child = new LazyChildLogger(logger, { reqId: 'req-1' });
    expect(child.level).toBe('info');
    child.debug('not written');
    child.error({ user: { password: 'hunter22' } }, 'request failed');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('"reqId":"req-1"');
    expect(lines[0]).toContain('request failed');
    expect(lines[0]).not.toContain('hunter22');
  });
});
