import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.ts';
import { startMemoryTrim } from './memory-trim.ts';

/** The trims a debug logger saw, by their log line. */
function trimLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger('debug', sink);
  const handedBack = () => lines.filter((line) => line.includes('memory handed back')).map((line) => (JSON.parse(line) as { flavor: string }).flavor);
  return { logger, trims: () => handedBack().length, flavors: handedBack };
}

describe('memory trim', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands memory back at start and once after each busy spell, never while requests arrive', () => {
    const server = createServer();
    const { logger, trims, flavors } = trimLog();
    const trim = startMemoryTrim(server, logger, { quietMs: 1_000 });
    try {
      expect(trims()).toBe(1);
      // Quiet and already trimmed: nothing more to hand back.
      vi.advanceTimersByTime(5_000);
      expect(trims()).toBe(1);

      // A busy spell of five seconds, a request every 200 ms: no trim while it lasts.
      for (let elapsed = 0; elapsed < 5_000; elapsed += 200) {
        server.emit('request');
        vi.advanceTimersByTime(200);
      }
      expect(trims()).toBe(1);
      // Quiet for the quiet time (plus one look): the burst's memory is handed back, once.
      vi.advanceTimersByTime(1_500);
      expect(trims()).toBe(2);
      vi.advanceTimersByTime(10_000);
      expect(trims()).toBe(2);

      // WebSocket sessions count as arrivals too.
      server.emit('upgrade');
      vi.advanceTimersByTime(1_500);
      expect(trims()).toBe(3);
      // Only the start-up one may drop compiled code: later ones keep the warm code of the busy spells.
      expect(flavors()).toEqual(['last-resort', 'regular', 'regular']);
    } finally {
      trim.stop();
    }
  });

  it('stops looking when stopped', () => {
    const server = createServer();
    const { logger, trims } = trimLog();
    startMemoryTrim(server, logger, { quietMs: 1_000 }).stop();
    server.emit('request');
    vi.advanceTimersByTime(5_000);
    expect(trims()).toBe(1);
    expect(server.listenerCount('request')).toBe(0);
  });
});
